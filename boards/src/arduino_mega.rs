//! Arduino Mega 2560 Rev3: the original machine's board, pin for pin as its sketch
//! (`arduino/birdcage.ino` in the original project) wires it.
//!
//! Datasheet references are to the ATmega640/1280/1281/2560/2561 datasheet, Atmel
//! 2549Q–AVR–02/2014.

use crate::{
    Adc, AdcAccuracy, AdcReference, AnalogInput, ArduinoPin, Button, ButtonPull, GameOverReading,
    LedDrive, Level, LsbFigure, Pin, PinMap, Profile, Pullups, Resistors, Tolerance,
};

const fn analog(n: u8) -> AnalogInput {
    // The Mega's An is the ATmega2560's ADCn (A0..A7 on port F, A8..A15 on port K).
    AnalogInput {
        pin: Pin::Arduino(ArduinoPin::Analog(n)),
        channel: n,
    }
}

const fn d(n: u8) -> Pin {
    Pin::Arduino(ArduinoPin::Digital(n))
}

/// The original board.
pub static ARDUINO_MEGA: Profile = Profile {
    name: "arduino-mega",
    description: "Arduino Mega 2560 Rev3 wired as the original machine (5 V, internal pull-ups)",
    mcu: "ATmega2560",
    // probe-rs has no AVR support; the board is flashed over its USB bootloader (avrdude).
    probe_rs_chip: None,
    // USB 5 V; AVCC is tied to VCC on the board.
    supply_millivolts: 5_000,
    adc: Adc {
        bits_used: 10,
        // analogReference(DEFAULT): REFS1:0 = 01, AVCC with a capacitor at AREF
        // (section 26.8.1, ADMUX). Ratiometric with the cage's supply.
        reference: AdcReference::Supply,
        accuracy: AdcAccuracy {
            resolution_bits: 10,
            // Section 26.1, Features: "±2 LSB Absolute Accuracy", "1 LSB Integral
            // Non-linearity". The chapter 31 "ADC Characteristics" table gives absolute
            // accuracy at VREF = 4 V, ADC clock 200 kHz. Stored as typical values: no
            // maximum is taken from the table here.
            total: LsbFigure::typ(2_000),
            offset: LsbFigure::UNSPECIFIED,
            gain: LsbFigure::UNSPECIFIED,
            inl: LsbFigure::typ(1_000),
            dnl: LsbFigure::UNSPECIFIED,
            // Assumed: the datasheet gives no noise figure. Half an LSB rms.
            noise_rms: LsbFigure::typ(500),
        },
        // Section 26.6.1, Analog Input Circuitry: optimised for sources of about 10 kΩ or less.
        max_source_ohms: Some(10_000),
        // The sketch takes one `analogRead` per node.
        samples: 1,
    },
    // Original bill of materials: "Resistor, 1kΩ, 1%".
    resistors: Resistors {
        nominal_ohms: 1_000,
        tolerance: Tolerance::percent(1),
    },
    // A 1 kΩ from the same batch, bottom terminal to GND.
    series_ohms: 1_000,
    // Assumed: a jumper wire through two header-socket contacts (about 20 mΩ each).
    wire_milliohms: 50,
    // Chapter 31, DC Characteristics: R_PU, I/O pin pull-up resistor, 20..50 kΩ. The sketch
    // sets every node pin to INPUT_PULLUP while measuring.
    pullups: Pullups::InternalAlwaysOn {
        min_ohms: 20_000,
        max_ohms: 50_000,
    },
    // The sketch sets the node pins to INPUT (pull-ups off) for the game-over reading.
    game_over: GameOverReading::PullupsReleased,
    pins: PinMap {
        // nodePins[] in the sketch, reordered to A6, C6, E6, G6, A4, C4, E4, G4, A2, C2, E2, G2
        // (it skips A0, A7 and A14).
        nodes: [
            analog(13),
            analog(8),
            analog(6),
            analog(1),
            analog(12),
            analog(9),
            analog(5),
            analog(2),
            analog(11),
            analog(10),
            analog(4),
            analog(3),
        ],
        bottom: analog(15),
        // ledRowPins[], row 1 first.
        row_leds: [d(51), d(49), d(47), d(45), d(43), d(41), d(39)],
        // ledColumnPins[], column A first.
        column_leds: [d(35), d(33), d(31), d(29), d(27), d(25), d(23)],
        // switchPin = 8, INPUT_PULLUP, pressed = LOW.
        button: Button {
            pin: d(8),
            active: Level::Low,
            pull: ButtonPull::Internal,
        },
    },
    // The sketch writes HIGH to light an LED; 330 Ω per LED in the original bill of materials.
    leds: LedDrive {
        active: Level::High,
        series_ohms: 330,
    },
    fixture: None,
};
