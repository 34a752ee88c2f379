//! NUCLEO-F446RE (Nucleo-64, MB1136): the new build, flashed and driven over probe-rs.
//!
//! References: STM32F446xC/E datasheet DS10693; reference manual RM0390; Nucleo-64 user manual
//! UM1724. Pins avoid what the board already uses: PA2/PA3 (ST-LINK virtual COM port,
//! USART2), PA5 (LD2), PA13/PA14 (SWD), PB3 (SWO), PC13 (B1, used here as the button),
//! PC14/PC15 and PH0/PH1 (oscillators), PB11 (not bonded on the F446: CN10-18 is VCAP1).

use crate::{
    Adc, AdcAccuracy, AdcReference, AnalogInput, Button, ButtonPull, EdgeFixture, GameOverReading,
    LedDrive, Level, LsbFigure, Pin, PinMap, Port, Profile, Pullups, RailRelease, Resistors,
    SpiBus, Tolerance,
};

const fn adc1(port: Port, number: u8, channel: u8) -> AnalogInput {
    AnalogInput {
        pin: Pin::stm32(port, number),
        channel,
    }
}

const fn p(port: Port, number: u8) -> Pin {
    Pin::stm32(port, number)
}

/// The STM32 build.
pub static NUCLEO_F446RE: Profile = Profile {
    name: "nucleo-f446re",
    description: "NUCLEO-F446RE with a switched 30 kOhm pull-up rail (3.3 V, probe-rs + RTT)",
    mcu: "STM32F446RE",
    probe_rs_chip: Some("STM32F446RETx"),
    // The Nucleo's 3.3 V regulator (UM1724, power supply); VDDA is fed from VDD.
    supply_millivolts: 3_300,
    adc: Adc {
        // RES = 01 in ADC_CR1: 10-bit conversions, the original machine's code scale.
        bits_used: 10,
        // VREF+ is bonded to VDDA in LQFP64 (DS10693, pinouts), so codes are ratiometric.
        reference: AdcReference::Supply,
        // DS10693, 12-bit ADC characteristics, table "ADC static accuracy" (fADC = 18 MHz,
        // RAIN < 10 kΩ), given at 12 bits; at 10 bits each figure is 4 times smaller.
        accuracy: AdcAccuracy {
            resolution_bits: 12,
            total: LsbFigure::typ_max(2_000, 5_000),
            offset: LsbFigure::typ_max(1_500, 2_500),
            gain: LsbFigure::typ_max(1_500, 3_000),
            inl: LsbFigure::typ_max(1_500, 3_000),
            dnl: LsbFigure::typ_max(1_000, 2_000),
            // Assumed: DS10693 gives no noise figure. 1 LSB rms at 12 bits (0.25 at 10).
            noise_rms: LsbFigure::typ(1_000),
        },
        // DS10693, table "ADC characteristics": RAIN, external input impedance, max 50 kΩ.
        max_source_ohms: Some(50_000),
        // The firmware averages 4 conversions per node (`firmware::measure`): four 10-bit
        // conversions take about 8 µs at 21 MHz, nothing next to a person's move, and halve
        // the noise.
        samples: 4,
    },
    resistors: Resistors {
        nominal_ohms: 1_000,
        tolerance: Tolerance::percent(1),
    },
    series_ohms: 1_000,
    // Assumed: a jumper wire through two header-socket contacts (about 20 mΩ each).
    wire_milliohms: 50,
    // GPIO pull-ups are disconnected in analog mode (RM0390, GPIO analog configuration), so
    // the pull-ups are external: 30 kΩ (E24, 30R as in the reference model). A shared rail
    // takes one GPIO instead of 13; the firmware only ever releases all of them at once (for
    // the game-over reading), so per-node switching would buy nothing.
    pullups: Pullups::SharedRail {
        ohms: 30_000,
        control: p(Port::B, 7),
        released: RailRelease::DrivenLow,
    },
    game_over: GameOverReading::PullupsReleased,
    pins: PinMap {
        // ADC1 channels. A6..G6 and A4, C4 on the Arduino header A0..A5; the rest on the
        // morpho headers and D11/D12.
        nodes: [
            adc1(Port::A, 0, 0),  // A6: A0, CN7-28
            adc1(Port::A, 1, 1),  // C6: A1, CN7-30
            adc1(Port::A, 4, 4),  // E6: A2, CN7-32
            adc1(Port::B, 0, 8),  // G6: A3, CN7-34
            adc1(Port::C, 1, 11), // A4: A4, CN7-36
            adc1(Port::C, 0, 10), // C4: A5, CN7-38
            adc1(Port::C, 2, 12), // E4: CN7-35
            adc1(Port::C, 3, 13), // G4: CN7-37
            adc1(Port::C, 4, 14), // A2: CN10-34
            adc1(Port::C, 5, 15), // C2: CN10-6
            adc1(Port::B, 1, 9),  // E2: CN10-24
            adc1(Port::A, 6, 6),  // G2: D12, CN10-13
        ],
        bottom: adc1(Port::A, 7, 7), // 0: D11, CN10-15
        // Rows 1..7 on the top of the morpho headers: CN7-1..4, CN10-1, -2, -4.
        row_leds: [
            p(Port::C, 10),
            p(Port::C, 11),
            p(Port::C, 12),
            p(Port::D, 2),
            p(Port::C, 9),
            p(Port::C, 8),
            p(Port::C, 6),
        ],
        // Columns A..G on the Arduino header: D2, D4, D6, D7, D8, D9, D10 (D3 = PB3 is SWO,
        // D5 = PB4 is NJTRST).
        column_leds: [
            p(Port::A, 10),
            p(Port::B, 5),
            p(Port::B, 10),
            p(Port::A, 8),
            p(Port::A, 9),
            p(Port::C, 7),
            p(Port::B, 6),
        ],
        // B1 USER: pulled up on the board, pressed = low (UM1724, push-buttons).
        button: Button {
            pin: p(Port::C, 13),
            active: Level::Low,
            pull: ButtonPull::OnBoard,
        },
    },
    leds: LedDrive {
        active: Level::High,
        series_ohms: 330,
    },
    // SPI2 (AF5) on CN10, clear of the ADC pins PA6/PA7 that SPI1 would take. 25 edges x 2
    // switches = 50, so 7 packages of 8.
    fixture: Some(EdgeFixture {
        bus: SpiBus::Spi2,
        sck: p(Port::B, 13),
        mosi: p(Port::B, 15),
        miso: Some(p(Port::B, 14)),
        sync: p(Port::B, 12),
        devices: 7,
        switches_per_device: 8,
        switches_per_edge: 2,
        // ADG714 data sheet, features: 2.5 Ω typical on-resistance (VDD = 5 V, fed from the
        // Nucleo's 5 V pin; 3.3 V logic drives its inputs).
        switch_on_milliohms: 2_500,
        // ADG714 data sheet, leakage currents: source/drain off leakage ±0.01 nA typical.
        switch_off_leakage_picoamps: 10,
    }),
};
