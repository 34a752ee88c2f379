//! The registry's profiles: invariants, lookups, pin maps, datasheet scaling and validation
//! errors.

use boards::{
    ARDUINO_MEGA, Adc, AdcReference, ArduinoPin, Distribution, EdgeFixture, LsbFigure,
    NUCLEO_F446RE, NodePinError, PROFILES, Pin, PinMap, Port, Profile, ProfileError, Pullups,
    RailRelease, Resistors, Tolerance, by_name,
};
use heuristic::{Node, Size};

fn size(m: u32) -> Size {
    Size::new(m).unwrap()
}

#[test]
fn every_profile_validates() {
    assert!(!PROFILES.is_empty());
    for profile in PROFILES {
        assert_eq!(profile.validate(), Ok(()), "{}", profile.name);
    }
}

#[test]
fn names_are_unique_and_by_name_round_trips() {
    for (i, a) in PROFILES.iter().enumerate() {
        for b in &PROFILES[i + 1..] {
            assert_ne!(a.name, b.name);
        }
        let found = by_name(a.name).unwrap();
        assert!(core::ptr::eq(found, *a), "{}", a.name);
        assert_eq!(by_name(&a.name.to_ascii_uppercase()).unwrap().name, a.name);
    }
    assert_eq!(by_name("arduino-mega").unwrap().probe_rs_chip, None);
    assert_eq!(
        by_name("nucleo-f446re").unwrap().probe_rs_chip,
        Some("STM32F446RETx")
    );
}

#[test]
fn unknown_names_give_the_exact_message() {
    let err = by_name("foo").unwrap_err();
    assert_eq!(
        err.to_string(),
        "unknown board `foo` (expected arduino-mega or nucleo-f446re)"
    );
    assert_eq!((err.name(), err.is_truncated()), ("foo", false));

    let long = "an-extremely-long-board-name-indeed";
    let err = by_name(long).unwrap_err();
    assert!(err.is_truncated());
    assert_eq!(err.name(), &long[..boards::UNKNOWN_NAME_CAPACITY]);
    assert_eq!(
        err.to_string(),
        "unknown board `an-extremely-long-board-…` (expected arduino-mega or nucleo-f446re)"
    );
    // Multi-byte characters are cut at a character boundary.
    let err = by_name(&"é".repeat(20)).unwrap_err();
    assert_eq!(err.name(), "é".repeat(12));
}

#[test]
fn no_pin_is_used_twice() {
    for profile in PROFILES {
        let pins: Vec<_> = profile.pins().collect();
        for (i, (role_a, a)) in pins.iter().enumerate() {
            for (role_b, b) in &pins[i + 1..] {
                assert!(
                    !a.same_pin(*b),
                    "{}: {a} is {role_a} and {role_b}",
                    profile.name
                );
            }
        }
        // 13 node inputs, 7 + 7 LEDs and the button at least.
        assert!(pins.len() >= 28, "{}", profile.name);
    }
}

#[test]
fn pin_maps_cover_every_node_of_m3_and_m4() {
    for profile in PROFILES {
        for size in PinMap::SIZES {
            let mut seen = Vec::new();
            for node in size.nodes() {
                let result = profile.pins.node(size, node);
                if node == Node::Top {
                    assert_eq!(result, Err(NodePinError::TopTerminal));
                    continue;
                }
                let input = result.unwrap_or_else(|e| panic!("{} {size}: {e}", profile.name));
                assert!(
                    !seen.iter().any(|p: &Pin| p.same_pin(input.pin)),
                    "{} {size}: {node} shares {}",
                    profile.name,
                    input.pin
                );
                seen.push(input.pin);
            }
            assert_eq!(seen.len(), size.internal_node_count() + 1);
        }
    }
    assert_eq!(PinMap::SIZES.map(Size::get), [3, 4]);
}

#[test]
fn m3_nodes_use_the_m4_pins_at_the_same_coordinates() {
    let pins = &ARDUINO_MEGA.pins;
    for node in size(3).nodes().filter(|n| !n.is_terminal()) {
        assert_eq!(pins.node(size(3), node), pins.node(size(4), node), "{node}");
    }
    // M=3 leaves the M=4 top row (jumpered to Q) and column G unmeasured.
    let a6 = Node::internal(size(4), 1, 6).unwrap();
    let g2 = Node::internal(size(4), 7, 2).unwrap();
    for node in [a6, g2] {
        assert_eq!(
            pins.node(size(3), node),
            Err(NodePinError::NotOnBoard {
                node,
                size: size(3)
            })
        );
    }
    assert_eq!(
        pins.node(size(5), Node::Bottom).unwrap_err().to_string(),
        "M=5 is not wired on this board (the pin map covers M=3 and M=4)"
    );
}

#[test]
fn every_edge_of_m3_and_m4_has_its_own_pair_of_leds() {
    for profile in PROFILES {
        for size in PinMap::SIZES {
            let mut pairs = Vec::new();
            for edge in size.edges() {
                let pair = profile.pins.edge_leds(edge).unwrap();
                assert!(!pairs.contains(&pair), "{} {edge}", profile.name);
                pairs.push(pair);
            }
            assert_eq!(pairs.len(), size.edge_count());
        }
    }
}

/// The original sketch reads `volts[row][column] = analogRead(nodePins[k])` with
/// `nodePins = {A13, A12, A11, A10, A9, A8, A6, A5, A4, A3, A2, A1, A15}`; rows and columns
/// there count from 0, so volts[6][0] is node A6.
#[test]
fn the_arduino_map_is_the_original_sketchs() {
    let sketch = [
        (13, "A6"),
        (12, "A4"),
        (11, "A2"),
        (10, "C2"),
        (9, "C4"),
        (8, "C6"),
        (6, "E6"),
        (5, "E4"),
        (4, "E2"),
        (3, "G2"),
        (2, "G4"),
        (1, "G6"),
        (15, "0"),
    ];
    let map: Vec<_> = ARDUINO_MEGA
        .pins
        .measured()
        .map(|(node, input)| (input.pin, node.to_string()))
        .collect();
    for (analog, node) in sketch {
        let pin = Pin::Arduino(ArduinoPin::Analog(analog));
        assert!(
            map.contains(&(pin, node.to_string())),
            "A{analog} -> {node}"
        );
    }
    let rows: Vec<_> = ARDUINO_MEGA.pins.row_leds.map(|p| p.to_string()).into();
    assert_eq!(rows, ["D51", "D49", "D47", "D45", "D43", "D41", "D39"]);
    let columns: Vec<_> = ARDUINO_MEGA.pins.column_leds.map(|p| p.to_string()).into();
    assert_eq!(columns, ["D35", "D33", "D31", "D29", "D27", "D25", "D23"]);
    assert_eq!(ARDUINO_MEGA.pins.button.pin.to_string(), "D8");
}

#[test]
fn nucleo_node_inputs_are_adc1_channels_of_their_pins() {
    // ADC1: PA0..PA7 = IN0..IN7, PB0/PB1 = IN8/IN9, PC0..PC5 = IN10..IN15 (DS10693 pinouts).
    for (node, input) in NUCLEO_F446RE.pins.measured() {
        let Pin::Stm32 { port, number } = input.pin else {
            panic!("{node}: {} is not an STM32 pin", input.pin);
        };
        let expected = match port {
            Port::A => number,
            Port::B => 8 + number,
            Port::C => 10 + number,
            _ => panic!("{node}: {} has no ADC channel", input.pin),
        };
        assert_eq!(input.channel, expected, "{node} on {}", input.pin);
    }
    let avoided = [
        "PA2", "PA3", "PA5", "PA13", "PA14", "PB3", "PB11", "PC14", "PC15",
    ];
    for (role, pin) in NUCLEO_F446RE.pins() {
        assert!(
            !avoided.contains(&pin.to_string().as_str()),
            "{role} on {pin}"
        );
    }
    assert_eq!(NUCLEO_F446RE.pins.button.pin.to_string(), "PC13");
}

#[test]
fn stm32_figures_scale_to_ten_bits() {
    let native = NUCLEO_F446RE.adc.accuracy;
    assert_eq!(native.resolution_bits, 12);
    assert_eq!(native.offset, LsbFigure::typ_max(1_500, 2_500));
    let ten = NUCLEO_F446RE.adc_accuracy();
    assert_eq!(ten.resolution_bits, 10);
    assert_eq!(ten.total, LsbFigure::typ_max(500, 1_250));
    assert_eq!(ten.offset, LsbFigure::typ_max(375, 625));
    assert_eq!(ten.gain, LsbFigure::typ_max(375, 750));
    assert_eq!(ten.inl, LsbFigure::typ_max(375, 750));
    assert_eq!(ten.dnl, LsbFigure::typ_max(250, 500));
    assert_eq!(ten.offset.max_lsb(), Some(0.625));
    // Back up to 12 bits is exact.
    assert_eq!(ten.at_bits(12), native);
    // The AVR figures are already at the resolution used.
    assert_eq!(ARDUINO_MEGA.adc_accuracy(), ARDUINO_MEGA.adc.accuracy);
    assert_eq!(ARDUINO_MEGA.adc_accuracy().total.typ_lsb(), Some(2.0));
}

#[test]
fn helper_values() {
    assert_eq!(ARDUINO_MEGA.full_scale_code(), 1023);
    assert_eq!(NUCLEO_F446RE.full_scale_code(), 1023);
    let twelve = Profile {
        adc: Adc {
            bits_used: 12,
            ..NUCLEO_F446RE.adc
        },
        ..NUCLEO_F446RE
    };
    assert_eq!(twelve.full_scale_code(), 4095);
    assert_eq!(ARDUINO_MEGA.supply_volts(), 5.0);
    assert_eq!(NUCLEO_F446RE.supply_volts_f32(), 3.3);
    assert_eq!(ARDUINO_MEGA.reference_millivolts(), 5_000);
    assert_eq!(NUCLEO_F446RE.reference_millivolts(), 3_300);
    for profile in PROFILES {
        assert_eq!(profile.resistor_ohms(), 1_000);
        assert_eq!(profile.series_ohms(), 1_000);
        assert_eq!(profile.resistors.tolerance.ppm, 10_000);
        assert_eq!(
            profile.resistors.tolerance.distribution,
            Distribution::default()
        );
        assert!(profile.is_ratiometric());
        assert!(profile.releases_pullups_for_game_over());
        assert_eq!(profile.adc.bits_used, 10);
    }
    assert_eq!(ARDUINO_MEGA.pullup_ohms(), 35_000);
    assert_eq!(NUCLEO_F446RE.pullup_ohms(), 30_000);
}

/// Each broken copy fails with a message naming the field.
#[test]
fn broken_values_fail_validation_naming_the_field() {
    let mega = ARDUINO_MEGA;
    let nucleo = NUCLEO_F446RE;
    let fixture = nucleo.fixture.unwrap();
    let mut mega_led_clash = mega;
    mega_led_clash.pins.row_leds[0] = mega.pins.column_leds[0];
    let mut mega_alias = mega;
    // D55 is A1, which measures G6.
    mega_alias.pins.column_leds[6] = Pin::Arduino(ArduinoPin::Digital(55));
    let mut mega_digital_node = mega;
    mega_digital_node.pins.nodes[0].pin = Pin::Arduino(ArduinoPin::Digital(2));
    let mut nucleo_channel = nucleo;
    nucleo_channel.pins.nodes[1].channel = 0;
    let mut nucleo_foreign = nucleo;
    nucleo_foreign.pins.row_leds[3] = Pin::Arduino(ArduinoPin::Digital(22));
    let mut nucleo_no_such = nucleo;
    nucleo_no_such.pins.column_leds[0] = Pin::stm32(Port::B, 16);

    let cases: Vec<(Profile, &str)> = vec![
        (
            Profile {
                adc: Adc {
                    bits_used: 20,
                    ..mega.adc
                },
                ..mega
            },
            "adc.bits_used = 20 is out of range (6..=16)",
        ),
        (
            Profile {
                adc: Adc {
                    bits_used: 5,
                    ..nucleo.adc
                },
                ..nucleo
            },
            "adc.bits_used = 5 is out of range (6..=16)",
        ),
        (
            Profile {
                adc: Adc {
                    reference: AdcReference::Fixed { millivolts: 4_096 },
                    ..nucleo.adc
                },
                ..nucleo
            },
            "adc.reference = 4096 mV exceeds supply_millivolts = 3300 mV",
        ),
        (
            Profile {
                supply_millivolts: 0,
                ..mega
            },
            "supply_millivolts = 0 is out of range (1700..=5500)",
        ),
        (
            Profile {
                resistors: Resistors {
                    nominal_ohms: 0,
                    ..mega.resistors
                },
                ..mega
            },
            "resistors.nominal_ohms = 0 is out of range (100..=1000000)",
        ),
        (
            Profile {
                series_ohms: 0,
                ..nucleo
            },
            "series_ohms = 0 is out of range (100..=1000000)",
        ),
        (
            Profile {
                resistors: Resistors {
                    tolerance: Tolerance {
                        ppm: 500_000,
                        ..mega.resistors.tolerance
                    },
                    ..mega.resistors
                },
                ..mega
            },
            "resistors.tolerance.ppm = 500000 is out of range (0..=499999)",
        ),
        (
            Profile {
                resistors: Resistors {
                    tolerance: Tolerance {
                        ppm: 10_000,
                        distribution: Distribution::Binned { hole_ppm: 10_000 },
                    },
                    ..mega.resistors
                },
                ..mega
            },
            "resistors.tolerance.distribution: hole_ppm = 10000 is not below the tolerance (10000 ppm)",
        ),
        (
            Profile {
                pullups: Pullups::InternalAlwaysOn {
                    min_ohms: 50_000,
                    max_ohms: 20_000,
                },
                ..mega
            },
            "pullups.min_ohms = 50000 exceeds pullups.max_ohms = 20000",
        ),
        (
            Profile {
                pullups: Pullups::SharedRail {
                    ohms: 0,
                    control: Pin::stm32(Port::B, 7),
                    released: RailRelease::DrivenLow,
                },
                ..nucleo
            },
            "pullups.ohms = 0 is out of range (1000..=1000000)",
        ),
        (
            Profile {
                pullups: Pullups::SharedRail {
                    ohms: 30_000,
                    control: Pin::stm32(Port::B, 7),
                    released: RailRelease::Floating,
                },
                ..nucleo
            },
            "pullups.released = Floating couples every node through the rail during the \
             game-over reading; use DrivenLow",
        ),
        (
            Profile {
                pullups: Pullups::SharedRail {
                    ohms: 30_000,
                    control: Pin::stm32(Port::A, 0),
                    released: RailRelease::DrivenLow,
                },
                ..nucleo
            },
            "pins: PA0 is used twice (node A6 and pull-up rail)",
        ),
        (
            mega_led_clash,
            "pins: D35 is used twice (row LED 1 and column LED A)",
        ),
        (
            mega_alias,
            "pins: A1 is used twice (node G6 and column LED G)",
        ),
        (
            mega_digital_node,
            "pins.nodes: node A6 is on D2, which is not an analog input",
        ),
        (
            nucleo_channel,
            "pins.nodes: ADC channel 0 is used twice (node A6 and node C6)",
        ),
        (
            nucleo_foreign,
            "pins: row LED 4 is on D22, not a pin of this board's kind",
        ),
        (
            nucleo_no_such,
            "pins: column LED A is on PB16, which does not exist",
        ),
        (
            Profile {
                fixture: Some(EdgeFixture {
                    devices: 6,
                    ..fixture
                }),
                ..nucleo
            },
            "fixture: 6 devices x 8 switches cannot switch 25 edges x 2",
        ),
        (
            Profile {
                adc: Adc {
                    accuracy: boards::AdcAccuracy {
                        gain: LsbFigure::typ_max(3_000, 1_500),
                        ..nucleo.adc.accuracy
                    },
                    ..nucleo.adc
                },
                ..nucleo
            },
            "adc.accuracy.gain: typical 3000 mLSB exceeds maximum 1500 mLSB",
        ),
        (
            Profile {
                wire_milliohms: 0,
                ..nucleo
            },
            "wire_milliohms = 0 is out of range (1..=10000)",
        ),
        (
            Profile {
                adc: Adc {
                    samples: 0,
                    ..nucleo.adc
                },
                ..nucleo
            },
            "adc.samples = 0 is out of range (1..=64)",
        ),
        (
            Profile {
                probe_rs_chip: Some(" "),
                ..nucleo
            },
            "probe_rs_chip is empty",
        ),
    ];
    for (profile, message) in cases {
        let err: ProfileError = profile.validate().expect_err(message);
        assert_eq!(err.to_string(), message);
    }
}

#[test]
fn a_floating_rail_is_only_rejected_when_released_for_the_game_over_reading() {
    let floating = Pullups::SharedRail {
        ohms: 30_000,
        control: Pin::stm32(Port::B, 7),
        released: RailRelease::Floating,
    };
    let kept_on = Profile {
        pullups: floating,
        game_over: boards::GameOverReading::PullupsOn,
        ..NUCLEO_F446RE
    };
    assert_eq!(kept_on.validate(), Ok(()));
    assert!(!kept_on.releases_pullups_for_game_over());
    let released = Profile {
        pullups: floating,
        ..NUCLEO_F446RE
    };
    assert_eq!(released.validate(), Err(ProfileError::FloatingRail));
}

#[test]
fn tolerance_bounds_are_exact() {
    assert_eq!(Tolerance::percent(1).bounds_ohms(1_000), (990, 1_010));
    assert_eq!(Tolerance::percent(5).bounds_ohms(30_000), (28_500, 31_500));
    assert_eq!(Tolerance::percent(1).fraction(), 0.01);
}

#[test]
fn pins_display_as_printed_on_the_board() {
    assert_eq!(Pin::Arduino(ArduinoPin::Analog(0)).to_string(), "A0");
    assert_eq!(Pin::Arduino(ArduinoPin::Digital(22)).to_string(), "D22");
    assert_eq!(Pin::stm32(Port::C, 13).to_string(), "PC13");
    assert!(Pin::Arduino(ArduinoPin::Analog(15)).same_pin(Pin::Arduino(ArduinoPin::Digital(69))));
}
