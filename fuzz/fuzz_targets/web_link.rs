//! The web app's link (`#size=4&moves=A7,c5&you=cut&graph=...`): `birdcage_web::App::new`,
//! the page a URL opens.
//!
//! Beyond "no panic": the hash the page writes back opens the same page (the same record,
//! the same hash) with no message, and the board and the panel draw.
#![no_main]

use birdcage_web::App;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    let mut app = App::new(&text);
    let hash = app.hash();
    let again = App::new(&hash);
    assert_eq!(again.message(), "", "{hash}");
    assert_eq!(again.record(), app.record(), "{hash}");
    assert_eq!(again.hash(), hash);
    let svg = app.svg();
    assert!(svg.starts_with("<svg") && svg.ends_with("</svg>"), "{hash}");
    let _ = app.panel();
    let _ = again.controls();
});
