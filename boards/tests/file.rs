//! Profile files: read into the same `Profile` the built-in boards are, checked once by
//! `Profile::validate`, with errors that name the file, the line and the field.
#![cfg(feature = "file")]
#![allow(clippy::disallowed_methods)] // a test writes its fixtures freely (clippy.toml)

use boards::file::{FileError, load, parse};
use boards::{AdcReference, Distribution, GameOverReading, NUCLEO_F446RE, Pullups, RailRelease};

fn error(text: &str) -> String {
    parse(text, "x.toml").unwrap_err().to_string()
}

#[test]
fn a_file_changes_only_what_it_names() {
    let text = "\
# a study's board
base = \"nucleo-f446re\"
name = \"nucleo-5pc\"
supply_millivolts = 3000
[adc]
bits_used = 12
samples = 16
reference_millivolts = 2500
[adc.accuracy.noise_rms]
typ_milli_lsb = 0
[resistors.tolerance]
ppm = 50000
distribution = \"uniform\"
[pullups]
ohms = 47000
released = \"floating\"
";
    // A floating rail is refused unless the game-over reading keeps the pull-ups on.
    assert_eq!(
        error(text),
        "profile file x.toml, line 16: pullups.released = Floating couples every node through \
         the rail during the game-over reading; use DrivenLow"
    );
    let p = parse(&format!("{text}game_over = \"pullups-on\"\n"), "x.toml");
    // `game_over` after a table header belongs to that table: an unknown key there.
    assert!(matches!(p, Err(FileError::Syntax { .. })), "{p:?}");
    let text = text.replace(
        "supply_millivolts = 3000\n",
        "supply_millivolts = 3000\ngame_over = \"pullups-on\"\n",
    );
    let p = parse(&text, "x.toml").unwrap();
    assert_eq!(p.name, "nucleo-5pc");
    assert_eq!(p.supply_millivolts, 3000);
    assert_eq!(p.game_over, GameOverReading::PullupsOn);
    assert_eq!(p.adc.bits_used, 12);
    assert_eq!(p.adc.samples, 16);
    assert_eq!(p.adc.reference, AdcReference::Fixed { millivolts: 2500 });
    assert_eq!(p.adc.accuracy.noise_rms.typ_milli_lsb, Some(0));
    assert_eq!(p.resistors.tolerance.ppm, 50_000);
    assert_eq!(p.resistors.tolerance.distribution, Distribution::Uniform);
    let Pullups::SharedRail {
        ohms,
        released,
        control,
    } = p.pullups
    else {
        panic!("{:?}", p.pullups)
    };
    assert_eq!((ohms, released), (47_000, RailRelease::Floating));
    // What the file does not name is the base's, pins included.
    assert_eq!(p.pins, NUCLEO_F446RE.pins);
    assert_eq!(p.fixture, NUCLEO_F446RE.fixture);
    assert_eq!(p.series_ohms, NUCLEO_F446RE.series_ohms);
    assert_eq!(p.adc.accuracy.inl, NUCLEO_F446RE.adc.accuracy.inl);
    assert!(
        matches!(NUCLEO_F446RE.pullups, Pullups::SharedRail { control: c, .. } if c == control)
    );
}

#[test]
fn invariants_are_named_with_their_line() {
    for (text, message) in [
        (
            "base = \"nucleo-f446re\"\nwire_milliohms = 0\n",
            "profile file x.toml, line 2: wire_milliohms = 0 is out of range (1..=10000)",
        ),
        (
            "base = \"nucleo-f446re\"\n[resistors.tolerance]\nppm = 600000\n",
            "profile file x.toml, line 3: resistors.tolerance.ppm = 600000 is out of range (0..=499999)",
        ),
        (
            "base = \"nucleo-f446re\"\n\n[adc]\nbits_used = 5\n",
            "profile file x.toml, line 4: adc.bits_used = 5 is out of range (6..=16)",
        ),
        (
            "base = \"nucleo-f446re\"\n[adc]\nsamples = 65\n",
            "profile file x.toml, line 3: adc.samples = 65 is out of range (1..=64)",
        ),
        (
            "base = \"arduino-mega\"\n[pullups]\nmin_ohms = 60000\n",
            "profile file x.toml, line 3: pullups.min_ohms = 60000 exceeds pullups.max_ohms = 50000",
        ),
        (
            "base = \"nucleo-f446re\"\n[adc.accuracy.gain]\ntyp_milli_lsb = 9000\n",
            "profile file x.toml, line 3: adc.accuracy.gain: typical 9000 mLSB exceeds maximum \
             3000 mLSB",
        ),
        (
            "base = \"nucleo-f446re\"\n[adc]\nreference_millivolts = 5000\n",
            "profile file x.toml, line 3: adc.reference = 5000 mV exceeds supply_millivolts = 3300 mV",
        ),
    ] {
        assert_eq!(error(text), message, "{text}");
    }
    // A value the file does not set but that breaks against one it does: the base is named.
    assert_eq!(
        error(
            "base = \"nucleo-f446re\"\nsupply_millivolts = 2000\n[adc]\nreference_millivolts = 3000\n"
        ),
        "profile file x.toml, line 4: adc.reference = 3000 mV exceeds supply_millivolts = 2000 mV"
    );
}

#[test]
fn syntax_types_and_unknown_keys_name_the_line() {
    let e = error("base = \"nucleo-f446re\"\n\nseries_ohms = \"big\"\n");
    assert!(
        e.starts_with("profile file x.toml: TOML parse error at line 3"),
        "{e}"
    );
    let e = error("base = \"arduino-mega\"\n[resistors]\nnominal_ohms = -1000\n");
    assert!(e.contains("line 3") && e.contains("-1000"), "{e}");
    let e = error("base = \"nucleo-f446re\"\n[resistors]\nnominal_ohms = nan\n");
    assert!(e.contains("line 3"), "{e}");
    let e = error("base = \"nucleo-f446re\"\ncolour = 1\n");
    assert!(e.contains("line 2") && e.contains("colour"), "{e}");
    let e = error("name = \"no base\"\n");
    assert!(e.contains("base"), "{e}");
    assert_eq!(
        error("\nbase = \"nucleo\"\n"),
        "profile file x.toml, line 2: base: unknown board `nucleo` (expected arduino-mega or \
         nucleo-f446re)"
    );
}

#[test]
fn what_a_base_cannot_take_is_refused() {
    assert_eq!(
        error("base = \"nucleo-f446re\"\n[pullups]\nkind = \"per-node\"\n"),
        "profile file x.toml, line 3: pullups.kind: the base (nucleo-f446re) has no control \
         pins for this kind, and profile files do not assign pins"
    );
    assert_eq!(
        error("base = \"arduino-mega\"\n[fixture]\nswitch_on_milliohms = 5000\n"),
        "profile file x.toml, line 3: fixture: the base (arduino-mega) has no edge fixture to \
         change"
    );
    // Internal pull-ups need no pins; removing the fixture needs none either.
    let p = parse(
        "base = \"nucleo-f446re\"\n[pullups]\nkind = \"internal\"\nmin_ohms = 20000\nmax_ohms = 50000\n[fixture]\nfitted = false\n",
        "x.toml",
    )
    .unwrap();
    assert_eq!(
        p.pullups,
        Pullups::InternalAlwaysOn {
            min_ohms: 20_000,
            max_ohms: 50_000
        }
    );
    assert_eq!(p.fixture, None);
}

#[test]
fn load_takes_a_name_or_a_file() {
    assert_eq!(load("arduino-mega").unwrap(), &boards::ARDUINO_MEGA);
    let dir = std::env::temp_dir().join(format!("boards-file-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("eight.toml");
    std::fs::write(&path, "base = \"arduino-mega\"\n[adc]\nbits_used = 8\n").unwrap();
    let spec = path.to_str().unwrap();
    let p = load(spec).unwrap();
    assert_eq!((p.name, p.adc.bits_used), (spec, 8));
    assert!(p.description.contains("arduino-mega"), "{}", p.description);
    let e = load(dir.join("missing.toml").to_str().unwrap()).unwrap_err();
    assert!(
        matches!(
            e,
            FileError::NotAFile {
                problem: boards::read::ReadError::Missing,
                ..
            }
        ),
        "{e}"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

/// Found by the `profile` fuzz target (fuzz/, 2026-11-23): a `base` holding a newline (a TOML
/// multi-line string) made the unknown-board error two lines; control characters are escaped.
#[test]
fn an_unknown_base_with_a_newline_stays_one_line() {
    assert_eq!(
        error("base = \"\"\"multi\nli~e\"\"\"\n"),
        "profile file x.toml, line 1: base: unknown board `multi\\nli~e` (expected arduino-mega \
         or nucleo-f446re)"
    );
    // An escape is kept whole or not at all when the name is cut.
    let e = boards::by_name("abcdefghijklmnopqrstuvw\t").unwrap_err();
    assert_eq!(
        (e.name(), e.is_truncated()),
        ("abcdefghijklmnopqrstuvw", true)
    );
}

/// Two keys that each set the ADC reference are refused, naming both; a name that would
/// break a report's line (a newline, a NUL) is refused with its line.
#[test]
fn contradictory_reference_and_control_characters_in_names_are_refused() {
    assert_eq!(
        error("base = \"nucleo-f446re\"\n[adc]\nreference_millivolts = 3000\nratiometric = true\n"),
        "profile file x.toml, line 4: adc.ratiometric: `ratiometric = true` and \
         `reference_millivolts` (line 3) both set the ADC reference: keep one"
    );
    // `ratiometric = false` says nothing against a fixed reference.
    let p = parse(
        "base = \"nucleo-f446re\"\n[adc]\nreference_millivolts = 3000\nratiometric = false\n",
        "x.toml",
    )
    .unwrap();
    assert_eq!(p.adc.reference, AdcReference::Fixed { millivolts: 3000 });
    assert_eq!(
        error("base = \"arduino-mega\"\nname = \"two\\nlines\"\n"),
        "profile file x.toml, line 2: name: \"two\\nlines\" holds a control character (a \
         newline, a tab, a NUL): names are printed in reports, one line each"
    );
    assert!(error("base = \"arduino-mega\"\nname = \"nul\\u0000\"\n").contains("\"nul\\0\""));
}

/// A FIFO is refused before it is opened (opening one blocks until a writer comes), and a
/// symlink to `/dev/zero` is refused, not read until memory runs out. Run in a thread with a
/// deadline, so that a regression fails instead of hanging.
#[cfg(unix)]
#[test]
fn special_files_are_refused_before_they_are_opened() {
    let dir = std::env::temp_dir().join(format!("boards-special-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let fifo = dir.join("fifo.toml");
    let made = std::process::Command::new("mkfifo")
        .arg(&fifo)
        .status()
        .unwrap();
    assert!(made.success());
    let zero = dir.join("zero.toml");
    std::os::unix::fs::symlink("/dev/zero", &zero).unwrap();
    let big = dir.join("big.toml");
    std::fs::write(
        &big,
        vec![b'#'; boards::file::MAX_PROFILE_BYTES as usize + 1],
    )
    .unwrap();
    let specs: Vec<String> = [&fifo, &zero, &big, &dir]
        .iter()
        .map(|p| p.to_str().unwrap().to_string())
        .collect();
    let (send, receive) = std::sync::mpsc::channel();
    let specs2 = specs.clone();
    std::thread::spawn(move || {
        for spec in &specs2 {
            send.send(load(spec).unwrap_err().to_string()).unwrap();
        }
    });
    let deadline = std::time::Duration::from_secs(20);
    let got: Vec<String> = (0..specs.len())
        .map(|_| receive.recv_timeout(deadline).expect("load returned"))
        .collect();
    assert_eq!(
        got,
        [
            format!(
                "profile file {}: not a regular file (a fifo, socket or device)",
                specs[0]
            ),
            format!(
                "profile file {}: not a regular file (a fifo, socket or device)",
                specs[1]
            ),
            format!(
                "profile file {}: larger than 1048576 bytes, the most this file may hold",
                specs[2]
            ),
            format!("profile file {}: is a directory, not a file", specs[3]),
        ]
    );
    std::fs::remove_dir_all(&dir).unwrap();
}
