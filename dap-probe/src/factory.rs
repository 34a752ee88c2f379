//! How probe-rs opens a server of the protocol like any probe: a [`ProbeFactory`] ([`PROBES`])
//! and a [`ProbeLister`] ([`DapLister`]) over the servers a program has made known, each
//! selected by `dap:unix:PATH` or `dap:tcp:HOST:PORT`.
//!
//! probe-rs's [`DebugProbeSelector`] is USB-shaped (`VID:PID[:SERIAL]`), so a server is listed
//! under VID:PID `0000:0001` (no USB device has vendor 0; gdb-probe's stubs are `0000:0000`)
//! with its address as the serial number; [`selector`] writes that selector from the address,
//! and the factory reads it back.

use std::fmt;
use std::sync::{Mutex, MutexGuard, PoisonError, Weak};

use gdb_probe::Address;
use probe_rs::probe::list::{ProbeListItem, ProbeLister};
use probe_rs::probe::{
    DebugProbe, DebugProbeError, DebugProbeInfo, DebugProbeSelector, Probe, ProbeCreationError,
    ProbeFactory,
};

use crate::client::Client;
use crate::connection::Connection;
use crate::probe::RemoteProbe;

/// The vendor id a server is listed under.
pub const VENDOR_ID: u16 = 0;
/// The product id a server is listed under.
pub const PRODUCT_ID: u16 = 1;

/// A selector that is not `dap:unix:PATH` or `dap:tcp:HOST:PORT`.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("`{0}` is not a DAP server selector: write dap:unix:PATH or dap:tcp:HOST:PORT")]
pub struct SelectorError(pub String);

/// Reads `dap:unix:PATH` or `dap:tcp:HOST:PORT`.
///
/// ```
/// use gdb_probe::Address;
/// use dap_probe::parse_selector;
/// assert_eq!(parse_selector("dap:unix:/tmp/b.sock").unwrap(), Address::Unix("/tmp/b.sock".into()));
/// assert_eq!(parse_selector("dap:tcp:127.0.0.1:5555").unwrap(), Address::Tcp("127.0.0.1:5555".into()));
/// assert_eq!(
///     parse_selector("gdb:unix:/tmp/q.sock").unwrap_err().to_string(),
///     "`gdb:unix:/tmp/q.sock` is not a DAP server selector: write dap:unix:PATH or dap:tcp:HOST:PORT"
/// );
/// assert!(parse_selector("dap:tcp:localhost").is_err());
/// ```
pub fn parse_selector(text: &str) -> Result<Address, SelectorError> {
    text.strip_prefix("dap:")
        .and_then(|address| address.parse().ok())
        .ok_or_else(|| SelectorError(text.chars().take(80).collect()))
}

/// probe-rs's selector for the server at `address`.
///
/// ```
/// let address = dap_probe::parse_selector("dap:tcp:127.0.0.1:5555").unwrap();
/// let selector = dap_probe::selector(&address);
/// assert_eq!(selector.serial_number.as_deref(), Some("tcp:127.0.0.1:5555"));
/// ```
pub fn selector(address: &Address) -> DebugProbeSelector {
    DebugProbeSelector {
        vendor_id: VENDOR_ID,
        product_id: PRODUCT_ID,
        interface: None,
        serial_number: Some(address.to_string()),
    }
}

/// The factory probe-rs calls to open a server: the servers made known by [`DapLister::new`],
/// and the connections of the probes open now, so that a host's own commands reach the
/// probe's connection ([`connection`]) rather than a second one (the board takes one
/// debugger).
pub struct DapProbeFactory {
    servers: Mutex<Vec<Address>>,
    open: Mutex<Vec<(Address, Weak<Mutex<Client>>)>>,
}

/// The one factory (probe-rs keeps `&'static` references to factories).
pub static PROBES: DapProbeFactory = DapProbeFactory {
    servers: Mutex::new(Vec::new()),
    open: Mutex::new(Vec::new()),
};

fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(PoisonError::into_inner)
}

impl fmt::Debug for DapProbeFactory {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("DapProbeFactory")
            .field("servers", &*lock(&self.servers))
            .finish_non_exhaustive()
    }
}

impl fmt::Display for DapProbeFactory {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("pyOCD remote probe")
    }
}

impl DapProbeFactory {
    fn server(&self, selector: &DebugProbeSelector) -> Option<Address> {
        if (selector.vendor_id, selector.product_id) != (VENDOR_ID, PRODUCT_ID) {
            return None;
        }
        let address: Address = selector.serial_number.as_deref()?.parse().ok()?;
        lock(&self.servers).iter().find(|a| **a == address).cloned()
    }

    fn info(address: &Address) -> DebugProbeInfo {
        DebugProbeInfo::new(
            name(address),
            VENDOR_ID,
            PRODUCT_ID,
            Some(address.to_string()),
            &PROBES,
            None,
            false,
        )
    }
}

fn name(address: &Address) -> String {
    format!("DAP server at {address}")
}

impl ProbeFactory for DapProbeFactory {
    /// Connects, greets (`hello [1]`) and takes the probe (`open`), as pyOCD's client opens.
    fn open(&self, selector: &DebugProbeSelector) -> Result<Box<dyn DebugProbe>, DebugProbeError> {
        let address = self.server(selector).ok_or(ProbeCreationError::NotFound)?;
        let mut client = Client::connect(&address).map_err(ProbeCreationError::from)?;
        client.open().map_err(ProbeCreationError::from)?;
        let connection = Connection::new(client);
        {
            let mut open = lock(&self.open);
            open.retain(|(a, weak)| *a != address && weak.strong_count() > 0);
            open.push((address.clone(), connection.downgrade()));
        }
        Ok(Box::new(RemoteProbe::new(connection, name(&address))))
    }

    fn list_probes(&self) -> Vec<ProbeListItem> {
        lock(&self.servers)
            .iter()
            .map(|a| ProbeListItem::accessible(DapProbeFactory::info(a)))
            .collect()
    }
}

/// The connection of the probe open on `address`, for a host's own commands while probe-rs
/// holds the probe ([`Connection::monitor`]). `None` once no probe holds it.
pub fn connection(address: &Address) -> Option<Connection> {
    let open = lock(&PROBES.open);
    open.iter()
        .find(|(a, _)| a == address)
        .and_then(|(_, weak)| Connection::upgrade(weak))
}

/// A [`ProbeLister`] of DAP servers, for `probe_rs::probe::list::Lister::with_lister`.
#[derive(Debug)]
pub struct DapLister;

impl DapLister {
    /// Makes `servers` known to the factory and returns the lister.
    pub fn new(servers: impl IntoIterator<Item = Address>) -> DapLister {
        let mut known = lock(&PROBES.servers);
        for address in servers {
            if !known.contains(&address) {
                known.push(address);
            }
        }
        DapLister
    }
}

impl ProbeLister for DapLister {
    fn open(&self, selector: &DebugProbeSelector) -> Result<Probe, DebugProbeError> {
        PROBES.open(selector).map(Probe::from_specific_probe)
    }

    fn list_with_access(&self, selector: Option<&DebugProbeSelector>) -> Vec<ProbeListItem> {
        PROBES.list_probes_filtered(selector)
    }
}
