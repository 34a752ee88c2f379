//! Empty: a build script makes cargo count the `[build-dependencies]` listed in Cargo.toml.
fn main() {}
