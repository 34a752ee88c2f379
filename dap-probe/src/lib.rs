//! A probe-rs debug probe that speaks pyOCD's remote-probe protocol (pyOCD 0.46,
//! `pyocd/probe/tcp_client_probe.py`): one JSON line each way, DP and AP register accesses, so
//! that a server of the protocol (a virtual board's ARM debug port, pyOCD's own probe server)
//! is debugged by probe-rs's whole ARM stack, from DP power-up to flash algorithms.
//!
//! - [`Client`]: the protocol's client over a unix socket or TCP ([`gdb_probe::Address`]),
//!   typed [`Request`]s written as pyOCD writes them, answers checked, statuses typed
//!   ([`Status`], [`ClientError`]).
//! - [`RemoteProbe`]: probe-rs's `DebugProbe`, `RawDapAccess` and `DapProbe` on a client, whose
//!   ARM interface is probe-rs's own `ArmCommunicationInterface`.
//! - [`DapLister`], [`PROBES`]: probe-rs opens a server from the selector `dap:unix:PATH` or
//!   `dap:tcp:HOST:PORT`: `Lister::with_lister(Box::new(DapLister::new([address])))
//!   .open(selector(&address))`.
//! - [`Connection`]: the probe's connection, shared with a host that sends its own commands
//!   (`monitor`, an extension of ours) while probe-rs holds the probe ([`connection`]).

mod client;
mod connection;
mod factory;
mod probe;
mod select;

pub use client::{
    Client, ClientError, DEFAULT_TIMEOUT, PROTOCOL_VERSION, Property, Request, Status,
};
pub use connection::Connection;
pub use factory::{
    DapLister, DapProbeFactory, PROBES, PRODUCT_ID, SelectorError, VENDOR_ID, connection,
    parse_selector, selector,
};
pub use probe::RemoteProbe;
