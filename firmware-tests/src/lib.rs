//! Empty: the tests are in `tests/` (embedded-test, on the chip). See README.md.
#![no_std]
