//! The client of pyOCD's remote-probe protocol (pyOCD 0.46, `pyocd/probe/tcp_client_probe.py`):
//! one JSON object a line each way, a request `{"id": N, "request": "NAME", "arguments": [...]}`
//! answered by `{"id": N, "status": 0, "result": VALUE}` or `{"id": N, "status": S, "error":
//! "TEXT"}`.
//!
//! Requests are written byte for byte as pyOCD's client writes them (Python's `json.dumps`:
//! `", "` and `": "` between items, non-ASCII escaped), so a server checked against pyOCD sees
//! nothing new from this client. Each line goes out in one write (no Nagle delay on TCP:
//! `Address::open` sets `TCP_NODELAY`). A request waits for its answer, except a write that is
//! posted ([`Client::post`]): its answer is read before the next request's, and its error
//! reported there, as probe-rs's CMSIS-DAP driver queues writes and reports a batch's error at
//! the read or flush that ends it. The server answers in order either way (pyOCD's reads one
//! line, answers it, then reads the next).

use std::collections::VecDeque;
use std::fmt;
use std::io::{self, Read, Write};
use std::time::Duration;

use gdb_probe::{Address, Stream};
use serde_json::Value;

/// The protocol version this client speaks (`hello`'s argument).
pub const PROTOCOL_VERSION: u32 = 1;

/// How long an answer may take by default: a DAP access on the server is microseconds, but a
/// loaded two-core machine stalls a process for seconds.
pub const DEFAULT_TIMEOUT: Duration = Duration::from_secs(10);

/// The longest answer line accepted: `read_ap_multiple` of a few thousand words is tens of
/// kilobytes; a line past this is a server gone wrong, not data.
const MAX_LINE: usize = 16 << 20;

/// How long a call looks for its answer without sleeping before it blocks on the socket. A
/// server on the same machine answers a DAP access within a few microseconds, while waking a
/// thread blocked in its read costs tens of them here: the M=3 tree over the virtual board's
/// debug port took 18.7 s blocking and 10.3 s looking first (release builds,
/// hil-tests/README.md). A remote or real probe's answer takes longer; the look then costs
/// this much CPU per access and no time.
const SPIN: Duration = Duration::from_micros(60);

/// The most writes posted before their answers are read. Their answers wait in the socket
/// (a few dozen bytes each, against a buffer of about 200 KB), and a server blocked writing
/// answers nobody reads would stop reading requests; this bound stays far within it.
const MAX_POSTED: usize = 64;

/// A property `readprop` reads.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Property {
    /// `vendor_name`: a string.
    VendorName,
    /// `product_name`: a string.
    ProductName,
    /// `supported_wire_protocols`: a list of protocol names (`["SWD"]`).
    SupportedWireProtocols,
    /// `wire_protocol`: the protocol in use, or null.
    WireProtocol,
    /// `capabilities`: a list of capability names (`["SWJ_SEQUENCE"]`).
    Capabilities,
}

impl Property {
    /// The property's name on the wire.
    pub fn name(self) -> &'static str {
        match self {
            Property::VendorName => "vendor_name",
            Property::ProductName => "product_name",
            Property::SupportedWireProtocols => "supported_wire_protocols",
            Property::WireProtocol => "wire_protocol",
            Property::Capabilities => "capabilities",
        }
    }
}

/// One request of the protocol, with its arguments typed.
///
/// DP addresses are `0x0` (DPIDR read, ABORT write), `0x4` (CTRL/STAT), `0x8` (SELECT write,
/// RESEND read), `0xC` (RDBUFF): A\[3:2\] only, the bank of a banked register being SELECT's
/// DPBANKSEL, written before. AP addresses are the register's low byte: bits \[3:2\] pick the
/// register in the bank DP SELECT chose (the client writes SELECT itself), bits \[7:4\] repeat
/// that bank.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Request<'a> {
    /// `hello [version]`: the first request of a connection.
    Hello(u32),
    /// `readprop [name]`.
    ReadProp(Property),
    /// `open`: takes the probe.
    Open,
    /// `close`: lets it go.
    Close,
    /// `lock`: one client's requests only, until `unlock`.
    Lock,
    /// `unlock`.
    Unlock,
    /// `connect [protocol]`: `"SWD"`.
    Connect(&'a str),
    /// `disconnect`.
    Disconnect,
    /// `swj_sequence [length, bits]`: `length` bits of `bits` on SWDIO/TMS, LSB first.
    SwjSequence {
        /// How many bits (at most 64).
        length: u8,
        /// The bits, LSB first.
        bits: u64,
    },
    /// `set_clock [hz]`.
    SetClock(u32),
    /// `reset`: a pulse on nRESET.
    Reset,
    /// `assert_reset [asserted]`: nRESET held low (`true`) or released.
    AssertReset(bool),
    /// `is_reset_asserted`.
    IsResetAsserted,
    /// `flush`: every posted transfer done.
    Flush,
    /// `read_dp [addr]`.
    ReadDp(u8),
    /// `write_dp [addr, data]`.
    WriteDp(u8, u32),
    /// `read_ap [addr]`.
    ReadAp(u8),
    /// `write_ap [addr, data]`.
    WriteAp(u8, u32),
    /// `read_ap_multiple [addr, count]`: `count` reads of one AP register (a DRW block).
    ReadApMultiple(u8, u32),
    /// `write_ap_multiple [addr, [values]]`.
    WriteApMultiple(u8, &'a [u32]),
    /// `monitor [text]`: a bench command of the server's own (an extension: pyOCD never sends
    /// it, and a server of real hardware answers it with an error).
    Monitor(&'a str),
}

impl Request<'_> {
    /// The request's name on the wire.
    pub fn name(&self) -> &'static str {
        match self {
            Request::Hello(_) => "hello",
            Request::ReadProp(_) => "readprop",
            Request::Open => "open",
            Request::Close => "close",
            Request::Lock => "lock",
            Request::Unlock => "unlock",
            Request::Connect(_) => "connect",
            Request::Disconnect => "disconnect",
            Request::SwjSequence { .. } => "swj_sequence",
            Request::SetClock(_) => "set_clock",
            Request::Reset => "reset",
            Request::AssertReset(_) => "assert_reset",
            Request::IsResetAsserted => "is_reset_asserted",
            Request::Flush => "flush",
            Request::ReadDp(_) => "read_dp",
            Request::WriteDp(..) => "write_dp",
            Request::ReadAp(_) => "read_ap",
            Request::WriteAp(..) => "write_ap",
            Request::ReadApMultiple(..) => "read_ap_multiple",
            Request::WriteApMultiple(..) => "write_ap_multiple",
            Request::Monitor(_) => "monitor",
        }
    }

    /// The arguments, `None` where pyOCD leaves the key out (a request without any).
    fn arguments(&self) -> Option<Vec<Value>> {
        let args = match *self {
            Request::Hello(version) => vec![version.into()],
            Request::ReadProp(property) => vec![property.name().into()],
            Request::Connect(protocol) => vec![protocol.into()],
            Request::SwjSequence { length, bits } => vec![length.into(), bits.into()],
            Request::SetClock(hz) => vec![hz.into()],
            Request::AssertReset(asserted) => vec![asserted.into()],
            Request::ReadDp(addr) | Request::ReadAp(addr) => vec![addr.into()],
            Request::WriteDp(addr, data) | Request::WriteAp(addr, data) => {
                vec![addr.into(), data.into()]
            }
            Request::ReadApMultiple(addr, count) => vec![addr.into(), count.into()],
            Request::WriteApMultiple(addr, values) => vec![addr.into(), values.into()],
            Request::Monitor(text) => vec![text.into()],
            Request::Open
            | Request::Close
            | Request::Lock
            | Request::Unlock
            | Request::Disconnect
            | Request::Reset
            | Request::IsResetAsserted
            | Request::Flush => return None,
        };
        Some(args)
    }

    /// The request as pyOCD's client writes it for `id`, without the newline.
    ///
    /// ```
    /// use dap_probe::Request;
    /// assert_eq!(Request::Hello(1).line(0), r#"{"id": 0, "request": "hello", "arguments": [1]}"#);
    /// assert_eq!(Request::Flush.line(7), r#"{"id": 7, "request": "flush"}"#);
    /// assert_eq!(
    ///     Request::WriteApMultiple(0xC, &[1, 2]).line(3),
    ///     r#"{"id": 3, "request": "write_ap_multiple", "arguments": [12, [1, 2]]}"#
    /// );
    /// ```
    pub fn line(&self, id: u64) -> String {
        use serde::ser::{SerializeMap, Serializer as _};
        let mut out = Vec::new();
        let mut ser = serde_json::Serializer::with_formatter(&mut out, PythonFormatter);
        let arguments = self.arguments();
        // Key by key in pyOCD's order ("id", "request", "arguments"; a `serde_json::Map`
        // would sort them). Writing into a Vec cannot fail.
        let _ = (|| -> Result<(), serde_json::Error> {
            let mut map = (&mut ser).serialize_map(None)?;
            map.serialize_entry("id", &id)?;
            map.serialize_entry("request", self.name())?;
            if let Some(arguments) = &arguments {
                map.serialize_entry("arguments", arguments)?;
            }
            map.end()
        })();
        // The formatter writes ASCII only.
        String::from_utf8(out).unwrap_or_default()
    }
}

impl fmt::Display for Request<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// Python's `json.dumps` separators and `ensure_ascii` (serde_json escapes the quote, the
/// backslash and the control characters as Python does, `\n` short and `\u001b` long).
struct PythonFormatter;

impl serde_json::ser::Formatter for PythonFormatter {
    fn begin_array_value<W: ?Sized + Write>(
        &mut self,
        writer: &mut W,
        first: bool,
    ) -> io::Result<()> {
        if first {
            Ok(())
        } else {
            writer.write_all(b", ")
        }
    }

    fn begin_object_key<W: ?Sized + Write>(
        &mut self,
        writer: &mut W,
        first: bool,
    ) -> io::Result<()> {
        if first {
            Ok(())
        } else {
            writer.write_all(b", ")
        }
    }

    fn begin_object_value<W: ?Sized + Write>(&mut self, writer: &mut W) -> io::Result<()> {
        writer.write_all(b": ")
    }

    fn write_string_fragment<W: ?Sized + Write>(
        &mut self,
        writer: &mut W,
        fragment: &str,
    ) -> io::Result<()> {
        for c in fragment.chars() {
            // Python escapes DEL too (`[^\ -~]`: all but printable ASCII).
            if c.is_ascii() && c != '\x7f' {
                writer.write_all(&[c as u8])?;
            } else {
                let mut units = [0u16; 2];
                for unit in c.encode_utf16(&mut units) {
                    write!(writer, "\\u{unit:04x}")?;
                }
            }
        }
        Ok(())
    }
}

/// A non-zero status, as pyOCD's server sends it (`StatusCode` in both of pyOCD's files).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Status {
    /// 1: any other error.
    General,
    /// 2: the probe behind the server is gone.
    ProbeDisconnected,
    /// 3: the probe failed.
    ProbeError,
    /// 10: a transfer failed (no acknowledge, a protocol error).
    TransferError,
    /// 11: a transfer timed out: the target kept answering WAIT.
    TransferTimeout,
    /// 12: the target answered FAULT; the DP's sticky error is set.
    TransferFault,
    /// A code pyOCD does not define (its client reads it as a probe error).
    Other(i64),
}

impl Status {
    /// The status for `code` (non-zero).
    pub fn from_code(code: i64) -> Status {
        match code {
            1 => Status::General,
            2 => Status::ProbeDisconnected,
            3 => Status::ProbeError,
            10 => Status::TransferError,
            11 => Status::TransferTimeout,
            12 => Status::TransferFault,
            other => Status::Other(other),
        }
    }

    /// The code on the wire.
    pub fn code(self) -> i64 {
        match self {
            Status::General => 1,
            Status::ProbeDisconnected => 2,
            Status::ProbeError => 3,
            Status::TransferError => 10,
            Status::TransferTimeout => 11,
            Status::TransferFault => 12,
            Status::Other(code) => code,
        }
    }
}

impl fmt::Display for Status {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let what = match self {
            Status::General => "error",
            Status::ProbeDisconnected => "probe disconnected",
            Status::ProbeError => "probe error",
            Status::TransferError => "transfer error",
            Status::TransferTimeout => "transfer timeout (WAIT)",
            Status::TransferFault => "transfer fault (FAULT)",
            Status::Other(_) => "unknown status",
        };
        write!(f, "status {}, {what}", self.code())
    }
}

/// Why a request failed.
#[derive(Debug, thiserror::Error)]
pub enum ClientError {
    /// The connection could not be made.
    #[error("cannot connect to the DAP server at {address}: {source}")]
    Connect {
        /// Where it was looked for.
        address: Address,
        /// Why not.
        #[source]
        source: io::Error,
    },
    /// Writing the request or reading its answer failed.
    #[error("`{request}` to the DAP server: {source}")]
    Io {
        /// The request's name.
        request: &'static str,
        /// What the socket said.
        #[source]
        source: io::Error,
    },
    /// The server closed the connection before answering.
    #[error("the DAP server closed the connection before answering `{request}`")]
    Closed {
        /// The request's name.
        request: &'static str,
    },
    /// No answer in time.
    #[error("no answer to `{request}` from the DAP server within {timeout:?}")]
    Timeout {
        /// The request's name.
        request: &'static str,
        /// How long the client waited.
        timeout: Duration,
    },
    /// The answer is not a response of the protocol: not JSON, not an object, no integer `id`
    /// or `status`, another request's `id`, or a result of the wrong type.
    #[error("malformed answer to `{request}` from the DAP server ({reason}): {line}")]
    Malformed {
        /// The request's name.
        request: &'static str,
        /// What is wrong with it.
        reason: &'static str,
        /// The line (its first 200 characters).
        line: String,
    },
    /// The server answered with a non-zero status.
    #[error("`{request}` failed on the DAP server ({status}): {message}")]
    Status {
        /// The request's name.
        request: &'static str,
        /// The status.
        status: Status,
        /// The server's `error` text (pyOCD's own placeholder where it sent none).
        message: String,
    },
}

impl ClientError {
    /// The server's status, for an error that carries one.
    pub fn status(&self) -> Option<Status> {
        match self {
            ClientError::Status { status, .. } => Some(*status),
            _ => None,
        }
    }
}

/// A connection to a server of the protocol.
pub struct Client {
    stream: Box<dyn Stream>,
    /// Bytes read past the last answer's newline (none in a conforming exchange).
    pending: Vec<u8>,
    next_id: u64,
    timeout: Duration,
    /// The probe is taken (`open` sent, `close` not yet): dropping the client closes it.
    is_open: bool,
    /// The stream's mode as last set: changed only when it must, as most answers are read
    /// without waiting ([`Client::look`]; two system calls an access saved).
    nonblocking: bool,
    /// Writes posted whose answers are not read yet, oldest first: their ids and names.
    posted: VecDeque<(u64, &'static str)>,
}

impl fmt::Debug for Client {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Client")
            .field("next_id", &self.next_id)
            .field("timeout", &self.timeout)
            .finish_non_exhaustive()
    }
}

impl Client {
    /// Connects to the server at `address` and greets it (`hello [1]`). Does not take the
    /// probe (`open`): a probe-rs probe does that when opened.
    pub fn connect(address: &Address) -> Result<Client, ClientError> {
        let stream = address.open().map_err(|source| ClientError::Connect {
            address: address.clone(),
            source,
        })?;
        let mut client = Client::over(stream)?;
        client.hello()?;
        Ok(client)
    }

    /// A client over a stream already open, which has not greeted the server yet.
    pub fn over(stream: Box<dyn Stream>) -> Result<Client, ClientError> {
        let mut client = Client {
            stream,
            pending: Vec::new(),
            next_id: 0,
            timeout: DEFAULT_TIMEOUT,
            is_open: false,
            nonblocking: false,
            posted: VecDeque::new(),
        };
        client.set_timeout(DEFAULT_TIMEOUT)?;
        Ok(client)
    }

    /// Bounds the wait for every later answer (a bench command that waits on the target
    /// needs longer than a DAP access).
    pub fn set_timeout(&mut self, timeout: Duration) -> Result<(), ClientError> {
        self.stream
            .set_read_timeout(Some(timeout))
            .map_err(|source| ClientError::Io {
                request: "set_timeout",
                source,
            })?;
        self.timeout = timeout;
        Ok(())
    }

    /// The bound on an answer's wait.
    pub fn timeout(&self) -> Duration {
        self.timeout
    }

    /// Sends `request` and returns its result (`None` where the server sent no `result`, as
    /// pyOCD's does for a request that returns nothing).
    ///
    /// The answers of writes posted before are read first: if one of them failed, its error is
    /// returned and `request` is not sent.
    pub fn call(&mut self, request: &Request<'_>) -> Result<Option<Value>, ClientError> {
        self.settle()?;
        let (id, name) = self.write_request(request)?;
        let answer = self.read_line(name)?;
        parse_response(name, id, &answer)
    }

    /// Sends `request` without waiting for its answer, which is read before the next call's
    /// ([`Client::settle`]): for writes, whose answer says only whether they went through. A
    /// round trip saved per write; an error (a FAULT) is reported one request late.
    pub fn post(&mut self, request: &Request<'_>) -> Result<(), ClientError> {
        if self.posted.len() >= MAX_POSTED {
            self.settle()?;
        }
        let (id, name) = self.write_request(request)?;
        self.posted.push_back((id, name));
        Ok(())
    }

    /// Reads the answers of every posted request. All are read, so that the stream stays in
    /// step; the first failure is returned.
    pub fn settle(&mut self) -> Result<(), ClientError> {
        let mut first = None;
        while let Some((id, name)) = self.posted.pop_front() {
            let answer = match self.read_line(name) {
                Ok(answer) => answer,
                // The stream is broken or out of step: nothing more will come in order.
                Err(e) => {
                    self.posted.clear();
                    return Err(first.unwrap_or(e));
                }
            };
            if let Err(e) = parse_response(name, id, &answer) {
                first.get_or_insert(e);
            }
        }
        first.map_or(Ok(()), Err)
    }

    /// Writes `request`'s line under the next id: the id and the request's name.
    fn write_request(&mut self, request: &Request<'_>) -> Result<(u64, &'static str), ClientError> {
        let name = request.name();
        let id = self.next_id;
        self.next_id += 1;
        let mut line = request.line(id).into_bytes();
        line.push(b'\n');
        self.send(&line).map_err(|source| ClientError::Io {
            request: name,
            source,
        })?;
        Ok((id, name))
    }

    fn read_line(&mut self, request: &'static str) -> Result<String, ClientError> {
        let mut chunk = [0u8; 4096];
        loop {
            if let Some(end) = self.pending.iter().position(|&b| b == b'\n') {
                let line: Vec<u8> = self.pending.drain(..=end).collect();
                return Ok(String::from_utf8_lossy(&line[..end]).into_owned());
            }
            if self.pending.len() > MAX_LINE {
                let line = String::from_utf8_lossy(&self.pending[..200]).into_owned();
                self.pending.clear();
                return Err(ClientError::Malformed {
                    request,
                    reason: "a line longer than 16 MiB",
                    line,
                });
            }
            if self.pending.is_empty() && self.look(&mut chunk) {
                continue;
            }
            if self.nonblocking {
                self.stream
                    .set_nonblocking(false)
                    .map_err(|source| ClientError::Io { request, source })?;
                self.nonblocking = false;
            }
            match self.stream.read(&mut chunk) {
                Ok(0) => return Err(ClientError::Closed { request }),
                Ok(n) => self.pending.extend_from_slice(&chunk[..n]),
                Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                Err(e)
                    if matches!(
                        e.kind(),
                        io::ErrorKind::WouldBlock | io::ErrorKind::TimedOut
                    ) =>
                {
                    return Err(ClientError::Timeout {
                        request,
                        timeout: self.timeout,
                    });
                }
                Err(source) => return Err(ClientError::Io { request, source }),
            }
        }
    }
}

impl Client {
    /// Writes `line` whole: one write for it (one segment on TCP, one system call) unless the
    /// socket is full (a download's long lines), which a stream left without waiting
    /// ([`Client::look`]) then waits for.
    fn send(&mut self, line: &[u8]) -> io::Result<()> {
        let mut sent = 0;
        while sent < line.len() {
            match self.stream.write(&line[sent..]) {
                Ok(0) => return Err(io::ErrorKind::WriteZero.into()),
                Ok(n) => sent += n,
                Err(e) if e.kind() == io::ErrorKind::WouldBlock => {
                    self.stream.set_nonblocking(false)?;
                    self.nonblocking = false;
                }
                Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                Err(e) => return Err(e),
            }
        }
        self.stream.flush()
    }

    /// Reads what has come within [`SPIN`] without blocking; whether anything came. Any
    /// error is left to the blocking read that follows.
    fn look(&mut self, chunk: &mut [u8]) -> bool {
        if !self.nonblocking {
            if self.stream.set_nonblocking(true).is_err() {
                return false;
            }
            self.nonblocking = true;
        }
        let start = std::time::Instant::now();
        loop {
            match self.stream.read(chunk) {
                Ok(n) if n > 0 => {
                    self.pending.extend_from_slice(&chunk[..n]);
                    return true;
                }
                Err(e) if e.kind() == io::ErrorKind::WouldBlock => {}
                // The end of the stream or an error: the blocking read says which.
                _ => return false,
            }
            if start.elapsed() >= SPIN {
                return false;
            }
            std::hint::spin_loop();
        }
    }
}

impl Drop for Client {
    /// Lets the probe go as pyOCD's client does (`close` before the socket closes), waiting
    /// briefly: a server that is gone must not hold up the host's exit.
    fn drop(&mut self) {
        if self.is_open && self.set_timeout(Duration::from_secs(1)).is_ok() {
            let _ = self.close();
        }
    }
}

/// Reads the answer `line` to request `id` (`name`).
fn parse_response(name: &'static str, id: u64, line: &str) -> Result<Option<Value>, ClientError> {
    let malformed = |reason| ClientError::Malformed {
        request: name,
        reason,
        line: line.chars().take(200).collect(),
    };
    let value: Value = serde_json::from_str(line.trim()).map_err(|_| malformed("not JSON"))?;
    let Value::Object(mut object) = value else {
        return Err(malformed("not an object"));
    };
    match object.get("id").map(Value::as_u64) {
        None => return Err(malformed("no `id`")),
        Some(None) => return Err(malformed("`id` is not an unsigned integer")),
        Some(Some(got)) if got != id => return Err(malformed("another request's `id`")),
        Some(Some(_)) => {}
    }
    let status = match object.get("status") {
        None => return Err(malformed("no `status`")),
        Some(status) => status
            .as_i64()
            .ok_or_else(|| malformed("`status` is not an integer"))?,
    };
    if status != 0 {
        let message = match object.remove("error") {
            Some(Value::String(text)) => text,
            Some(other) => other.to_string(),
            // pyOCD's client's words for the same case.
            None => "(missing error message key)".to_string(),
        };
        return Err(ClientError::Status {
            request: name,
            status: Status::from_code(status),
            message,
        });
    }
    Ok(object.remove("result").filter(|v| !v.is_null()))
}

/// A result of the wrong type or size for its request.
fn wrong_result(
    request: &'static str,
    reason: &'static str,
    result: &Option<Value>,
) -> ClientError {
    ClientError::Malformed {
        request,
        reason,
        line: result.as_ref().map_or_else(
            || "(no result)".to_string(),
            |v| v.to_string().chars().take(200).collect(),
        ),
    }
}

fn as_u32(request: &'static str, result: Option<Value>) -> Result<u32, ClientError> {
    result
        .as_ref()
        .and_then(Value::as_u64)
        .and_then(|v| u32::try_from(v).ok())
        .ok_or_else(|| {
            wrong_result(
                request,
                "the result is not a 32-bit unsigned integer",
                &result,
            )
        })
}

/// The typed requests.
impl Client {
    /// `hello [1]`.
    pub fn hello(&mut self) -> Result<(), ClientError> {
        self.call(&Request::Hello(PROTOCOL_VERSION)).map(drop)
    }

    /// `readprop [name]`: the property's value as the server sent it.
    pub fn read_property(&mut self, property: Property) -> Result<Value, ClientError> {
        Ok(self
            .call(&Request::ReadProp(property))?
            .unwrap_or(Value::Null))
    }

    /// `open`.
    pub fn open(&mut self) -> Result<(), ClientError> {
        self.call(&Request::Open)?;
        self.is_open = true;
        Ok(())
    }

    /// `close`.
    pub fn close(&mut self) -> Result<(), ClientError> {
        self.is_open = false;
        self.call(&Request::Close).map(drop)
    }

    /// `connect ["SWD"]`.
    pub fn connect_swd(&mut self) -> Result<(), ClientError> {
        self.call(&Request::Connect("SWD")).map(drop)
    }

    /// `disconnect`.
    pub fn disconnect(&mut self) -> Result<(), ClientError> {
        self.call(&Request::Disconnect).map(drop)
    }

    /// `swj_sequence [length, bits]`.
    pub fn swj_sequence(&mut self, length: u8, bits: u64) -> Result<(), ClientError> {
        self.call(&Request::SwjSequence { length, bits }).map(drop)
    }

    /// `set_clock [hz]`.
    pub fn set_clock(&mut self, hz: u32) -> Result<(), ClientError> {
        self.call(&Request::SetClock(hz)).map(drop)
    }

    /// `reset`.
    pub fn reset(&mut self) -> Result<(), ClientError> {
        self.call(&Request::Reset).map(drop)
    }

    /// `assert_reset [asserted]`.
    pub fn assert_reset(&mut self, asserted: bool) -> Result<(), ClientError> {
        self.call(&Request::AssertReset(asserted)).map(drop)
    }

    /// `is_reset_asserted`.
    pub fn is_reset_asserted(&mut self) -> Result<bool, ClientError> {
        let result = self.call(&Request::IsResetAsserted)?;
        result.as_ref().and_then(Value::as_bool).ok_or_else(|| {
            wrong_result("is_reset_asserted", "the result is not a boolean", &result)
        })
    }

    /// `flush`.
    pub fn flush(&mut self) -> Result<(), ClientError> {
        self.call(&Request::Flush).map(drop)
    }

    /// `read_dp [addr]`.
    pub fn read_dp(&mut self, addr: u8) -> Result<u32, ClientError> {
        let result = self.call(&Request::ReadDp(addr))?;
        as_u32("read_dp", result)
    }

    /// `write_dp [addr, data]`.
    pub fn write_dp(&mut self, addr: u8, data: u32) -> Result<(), ClientError> {
        self.call(&Request::WriteDp(addr, data)).map(drop)
    }

    /// `read_ap [addr]`.
    pub fn read_ap(&mut self, addr: u8) -> Result<u32, ClientError> {
        let result = self.call(&Request::ReadAp(addr))?;
        as_u32("read_ap", result)
    }

    /// `write_ap [addr, data]`.
    pub fn write_ap(&mut self, addr: u8, data: u32) -> Result<(), ClientError> {
        self.call(&Request::WriteAp(addr, data)).map(drop)
    }

    /// `read_ap_multiple [addr, count]` into `values` (`count` is its length).
    pub fn read_ap_multiple(&mut self, addr: u8, values: &mut [u32]) -> Result<(), ClientError> {
        const NAME: &str = "read_ap_multiple";
        let count = u32::try_from(values.len()).unwrap_or(u32::MAX);
        let result = self.call(&Request::ReadApMultiple(addr, count))?;
        let words = match &result {
            Some(Value::Array(words)) if words.len() == values.len() => words,
            _ => {
                return Err(wrong_result(
                    NAME,
                    "the result is not a list of `count` words",
                    &result,
                ));
            }
        };
        for (slot, word) in values.iter_mut().zip(words) {
            *slot = word
                .as_u64()
                .and_then(|w| u32::try_from(w).ok())
                .ok_or_else(|| {
                    wrong_result(NAME, "a word is not a 32-bit unsigned integer", &result)
                })?;
        }
        Ok(())
    }

    /// `write_ap_multiple [addr, [values]]`.
    pub fn write_ap_multiple(&mut self, addr: u8, values: &[u32]) -> Result<(), ClientError> {
        self.call(&Request::WriteApMultiple(addr, values)).map(drop)
    }

    /// `monitor [text]`: a bench command of the server's; what it printed.
    pub fn monitor(&mut self, text: &str) -> Result<String, ClientError> {
        let result = self.call(&Request::Monitor(text))?;
        match result {
            Some(Value::String(output)) => Ok(output),
            None => Ok(String::new()),
            other => Err(wrong_result(
                "monitor",
                "the result is not a string",
                &other,
            )),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn requests_are_written_as_python_json_dumps_writes_them() {
        // Each right-hand side is Python 3's `json.dumps({...})` of pyOCD's dict.
        let cases: &[(Request<'_>, &str)] = &[
            (
                Request::Hello(1),
                r#"{"id": 0, "request": "hello", "arguments": [1]}"#,
            ),
            (Request::Open, r#"{"id": 0, "request": "open"}"#),
            (
                Request::ReadProp(Property::SupportedWireProtocols),
                r#"{"id": 0, "request": "readprop", "arguments": ["supported_wire_protocols"]}"#,
            ),
            (
                Request::Connect("SWD"),
                r#"{"id": 0, "request": "connect", "arguments": ["SWD"]}"#,
            ),
            (
                Request::SwjSequence {
                    length: 64,
                    bits: 0x86852D956209F392,
                },
                r#"{"id": 0, "request": "swj_sequence", "arguments": [64, 9693203892603057042]}"#,
            ),
            (
                Request::AssertReset(true),
                r#"{"id": 0, "request": "assert_reset", "arguments": [true]}"#,
            ),
            (
                Request::WriteDp(8, 0xFF00_00F0),
                r#"{"id": 0, "request": "write_dp", "arguments": [8, 4278190320]}"#,
            ),
            (
                Request::ReadApMultiple(0xC, 4),
                r#"{"id": 0, "request": "read_ap_multiple", "arguments": [12, 4]}"#,
            ),
            (
                Request::WriteApMultiple(0xC, &[]),
                r#"{"id": 0, "request": "write_ap_multiple", "arguments": [12, []]}"#,
            ),
            (
                Request::Monitor("say \"é\"\n"),
                r#"{"id": 0, "request": "monitor", "arguments": ["say \"\u00e9\"\n"]}"#,
            ),
        ];
        for (request, line) in cases {
            assert_eq!(request.line(0), *line, "{request:?}");
        }
        assert_eq!(
            Request::Monitor("\x01\x7f").line(0),
            r#"{"id": 0, "request": "monitor", "arguments": ["\u0001\u007f"]}"#
        );
        assert_eq!(
            Request::Monitor("🐦").line(0),
            r#"{"id": 0, "request": "monitor", "arguments": ["\ud83d\udc26"]}"#
        );
    }

    #[test]
    fn answers_are_checked_and_statuses_typed() {
        assert_eq!(
            parse_response("read_dp", 3, r#"{"id": 3, "status": 0, "result": 5}"#).unwrap(),
            Some(Value::from(5))
        );
        // pyOCD's server leaves `result` out for a request that returns nothing.
        assert_eq!(
            parse_response("flush", 3, r#"{"id": 3, "status": 0}"#).unwrap(),
            None
        );
        let e = parse_response(
            "read_ap",
            3,
            r#"{"id": 3, "status": 12, "error": "FAULT ACK"}"#,
        )
        .unwrap_err();
        assert_eq!(e.status(), Some(Status::TransferFault));
        assert_eq!(
            e.to_string(),
            "`read_ap` failed on the DAP server (status 12, transfer fault (FAULT)): FAULT ACK"
        );
        let e = parse_response("read_ap", 3, r#"{"id": 3, "status": 11}"#).unwrap_err();
        assert_eq!(e.status(), Some(Status::TransferTimeout));
        assert!(
            e.to_string().ends_with("(missing error message key)"),
            "{e}"
        );
        assert_eq!(Status::from_code(42), Status::Other(42));
        for (line, reason) in [
            ("", "not JSON"),
            ("[1]", "not an object"),
            (r#"{"status": 0}"#, "no `id`"),
            (
                r#"{"id": -1, "status": 0}"#,
                "`id` is not an unsigned integer",
            ),
            (r#"{"id": 4, "status": 0}"#, "another request's `id`"),
            (r#"{"id": 3}"#, "no `status`"),
            (r#"{"id": 3, "status": "ok"}"#, "`status` is not an integer"),
        ] {
            match parse_response("read_dp", 3, line) {
                Err(ClientError::Malformed { reason: r, .. }) => assert_eq!(r, reason, "{line}"),
                other => panic!("{line}: {other:?}"),
            }
        }
    }
}
