//! How probe-rs opens a stub like any probe: a [`ProbeFactory`] ([`PROBES`]) and a
//! [`ProbeLister`] ([`GdbLister`]) over the stubs a program has made known, each selected by
//! `gdb:unix:PATH` or `gdb:tcp:HOST:PORT`.
//!
//! probe-rs's [`DebugProbeSelector`] is USB-shaped (`VID:PID[:SERIAL]`), so a stub is listed
//! under VID:PID `0000:0000` (no USB device has vendor 0) with its address as the serial
//! number; [`selector`] writes that selector from the text form, and the factory reads it back.

use std::fmt;
use std::ops::Range;
use std::sync::{Mutex, MutexGuard, PoisonError};

use probe_rs::probe::list::{ProbeListItem, ProbeLister};
use probe_rs::probe::{
    DebugProbe, DebugProbeError, DebugProbeInfo, DebugProbeSelector, Probe, ProbeCreationError,
    ProbeFactory,
};

use super::{GdbProbe, GdbProbeError, SharedGdb};
use crate::client::Gdb;
use crate::quirks::Quirks;
use crate::transport::{Address, AddressError};

/// The vendor and product ids a stub is listed under.
pub const VENDOR_ID: u16 = 0;
/// See [`VENDOR_ID`].
pub const PRODUCT_ID: u16 = 0;

/// A stub to offer: where it listens, its quirks, and the memory writes may go to.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GdbTarget {
    /// Where the stub listens.
    pub address: Address,
    /// Its departures from the protocol.
    pub quirks: Quirks,
    /// The target's RAM (writes elsewhere are refused where the stub drops them).
    pub ram: Vec<Range<u64>>,
}

/// A selector that is not `gdb:ADDRESS`.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SelectorError {
    /// No `gdb:` in front.
    #[error("`{0}` is not a gdb stub selector: write gdb:unix:PATH or gdb:tcp:HOST:PORT")]
    Prefix(String),
    /// The address after it is not one.
    #[error(transparent)]
    Address(#[from] AddressError),
}

/// Reads `gdb:unix:PATH` or `gdb:tcp:HOST:PORT`.
///
/// ```
/// use gdb_probe::Address;
/// let a = gdb_probe::probe::parse_selector("gdb:unix:/tmp/q.sock").unwrap();
/// assert_eq!(a, Address::Unix("/tmp/q.sock".into()));
/// assert!(gdb_probe::probe::parse_selector("0483:374b").is_err());
/// ```
pub fn parse_selector(text: &str) -> Result<Address, SelectorError> {
    let address = text
        .strip_prefix("gdb:")
        .ok_or_else(|| SelectorError::Prefix(text.chars().take(80).collect()))?;
    Ok(address.parse()?)
}

/// probe-rs's selector for the stub at `address`.
pub fn selector(address: &Address) -> DebugProbeSelector {
    DebugProbeSelector {
        vendor_id: VENDOR_ID,
        product_id: PRODUCT_ID,
        interface: None,
        serial_number: Some(address.to_string()),
    }
}

/// The factory probe-rs calls to open a stub: the stubs made known by [`GdbLister::new`], and
/// the connections of the probes open now, so that a host polling RTT on its own reaches the
/// probe's connection ([`connection`]) rather than opening a second one (QEMU takes one).
pub struct GdbProbeFactory {
    targets: Mutex<Vec<GdbTarget>>,
    open: Mutex<Vec<(Address, SharedGdb)>>,
}

/// The one factory (probe-rs keeps `&'static` references to factories).
pub static PROBES: GdbProbeFactory = GdbProbeFactory {
    targets: Mutex::new(Vec::new()),
    open: Mutex::new(Vec::new()),
};

fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(PoisonError::into_inner)
}

impl fmt::Debug for GdbProbeFactory {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("GdbProbeFactory")
            .field("targets", &*lock(&self.targets))
            .finish_non_exhaustive()
    }
}

impl fmt::Display for GdbProbeFactory {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("GDB stub")
    }
}

impl GdbProbeFactory {
    fn target(&self, selector: &DebugProbeSelector) -> Option<GdbTarget> {
        if (selector.vendor_id, selector.product_id) != (VENDOR_ID, PRODUCT_ID) {
            return None;
        }
        let address: Address = selector.serial_number.as_deref()?.parse().ok()?;
        lock(&self.targets)
            .iter()
            .find(|t| t.address == address)
            .cloned()
    }

    fn info(target: &GdbTarget) -> DebugProbeInfo {
        DebugProbeInfo::new(
            format!("GDB stub at {}", target.address),
            VENDOR_ID,
            PRODUCT_ID,
            Some(target.address.to_string()),
            &PROBES,
            None,
            false,
        )
    }
}

impl ProbeFactory for GdbProbeFactory {
    fn open(&self, selector: &DebugProbeSelector) -> Result<Box<dyn DebugProbe>, DebugProbeError> {
        let target = self.target(selector).ok_or(ProbeCreationError::NotFound)?;
        let gdb = Gdb::connect(&target.address, target.quirks)
            .map_err(|e| ProbeCreationError::from(GdbProbeError::Stub(Box::new(e))))?;
        let shared = SharedGdb::new(gdb);
        {
            let mut open = lock(&self.open);
            open.retain(|(a, _)| *a != target.address);
            open.push((target.address.clone(), shared.clone()));
        }
        Ok(Box::new(GdbProbe::new(
            shared,
            target.quirks,
            target.ram,
            None,
        )))
    }

    fn list_probes(&self) -> Vec<ProbeListItem> {
        lock(&self.targets)
            .iter()
            .map(|t| ProbeListItem::accessible(GdbProbeFactory::info(t)))
            .collect()
    }
}

/// The connection of the probe open on `address`, for a host that polls RTT itself while the
/// probe is attached ([`SharedGdb::hold`]). `None` once no probe holds it.
pub fn connection(address: &Address) -> Option<SharedGdb> {
    let mut open = lock(&PROBES.open);
    // A connection only this table holds belongs to a probe that is gone.
    open.retain(|(_, shared)| shared.users() > 1);
    open.iter()
        .find(|(a, _)| a == address)
        .map(|(_, s)| s.clone())
}

/// A [`ProbeLister`] of gdb stubs, for `probe_rs::probe::list::Lister::with_lister`.
#[derive(Debug)]
pub struct GdbLister;

impl GdbLister {
    /// Makes `targets` known to the factory (an address known already takes the new
    /// quirks and RAM) and returns the lister.
    pub fn new(targets: impl IntoIterator<Item = GdbTarget>) -> GdbLister {
        let mut known = lock(&PROBES.targets);
        for target in targets {
            known.retain(|t| t.address != target.address);
            known.push(target);
        }
        GdbLister
    }
}

impl ProbeLister for GdbLister {
    fn open(&self, selector: &DebugProbeSelector) -> Result<Probe, DebugProbeError> {
        PROBES.open(selector).map(Probe::from_specific_probe)
    }

    fn list_with_access(&self, selector: Option<&DebugProbeSelector>) -> Vec<ProbeListItem> {
        PROBES.list_probes_filtered(selector)
    }
}
