//! pyOCD's remote-probe protocol, the server's side: one JSON object a line each way
//! (pyOCD 0.46, `pyocd/probe/tcp_client_probe.py` and `tcp_probe_server.py`, protocol version
//! 1). A request is `{"id": N, "request": NAME, "arguments": [...]}`, an answer
//! `{"id": N, "status": 0, "result": VALUE}` or `{"id": N, "status": S, "error": TEXT}`.
//!
//! Why this format and not CMSIS-DAP's packets: it is an existing, documented protocol at the
//! DAP level (DP and AP register reads and writes, SWJ sequences, reset), so pyOCD, a debugger
//! that shares no code with probe-rs, drives the board with its own ADIv5 and Cortex-M code
//! (`pyocd ... -u remote:HOST:PORT`); CMSIS-DAP's packets are a USB HID/bulk format whose
//! socket form no packaged tool speaks here (TOOLCHAIN.md: Debian's OpenOCD 0.12 has no
//! CMSIS-DAP TCP backend). The server does not manage AP selection (pyOCD's
//! `MANAGED_AP_SELECTION` capability is not offered): the client writes SELECT, and an AP
//! access takes A[3:2] as on the wire.
//!
//! One request is ours, which pyOCD never sends: `monitor [TEXT]`, the virtual board's
//! bench-only commands (`boards::virtual_board::Monitor`: `game N`, `leds`, `wait ...`), the
//! things a board has no register for. A real board's server answers it "unknown request".

use serde_json::{Value, json};

/// The protocol version pyOCD's client says `hello` with.
pub const VERSION: u64 = 1;

/// The longest request line taken (a `write_ap_multiple` of 1,024 words is about 12 KB).
pub const MAX_LINE: usize = 64 * 1024;

/// An answer's status (pyOCD's `StatusCode`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Status {
    /// A request the server cannot take.
    General = 1,
    /// A WAIT acknowledge: the AP's bus has not completed a transfer (a stalled bus only).
    Wait = 11,
    /// A FAULT acknowledge: a sticky error is set in the DP.
    Fault = 12,
}

/// A request, typed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Request {
    /// `hello [version]`.
    Hello(u64),
    /// `readprop [name]`.
    ReadProperty(String),
    /// `open`, `close`, `lock`, `unlock`, `flush`, `disconnect`: nothing to do on a socket.
    Nothing,
    /// `connect [protocol]`.
    Connect(String),
    /// `swj_sequence [length, bits]`.
    SwjSequence(u32, u64),
    /// `set_clock [hz]`.
    SetClock(u64),
    /// `reset`: nRST pulsed.
    Reset,
    /// `assert_reset [on]`: nRST held or let go.
    AssertReset(bool),
    /// `is_reset_asserted`.
    IsResetAsserted,
    /// `read_dp [addr]`.
    ReadDp(u32),
    /// `write_dp [addr, value]`.
    WriteDp(u32, u32),
    /// `read_ap [addr]`.
    ReadAp(u32),
    /// `write_ap [addr, value]`.
    WriteAp(u32, u32),
    /// `read_ap_multiple [addr, count]`.
    ReadApMultiple(u32, usize),
    /// `write_ap_multiple [addr, values]`.
    WriteApMultiple(u32, Vec<u32>),
    /// `get_memory_interface_for_ap [version, address]`: the server offers none (`null`), so
    /// the client's own MEM-AP code drives the AP through `read_ap`/`write_ap`.
    MemoryInterface,
    /// `monitor [text]`: ours.
    Monitor(String),
}

/// A line that is not a request this server takes: the answer's id (-1 when the line has
/// none) and why.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Refused {
    /// The request's id, if it had one.
    pub id: i64,
    /// Why, in words.
    pub why: String,
}

/// The longest `read_ap_multiple` taken: 1 KB of TAR's auto-increment, in words, times four.
const MAX_COUNT: usize = 1024;

impl Request {
    /// Reads one line: the request's id and the request, or why not.
    ///
    /// ```ignore
    /// let (id, r) = Request::parse(r#"{"id": 3, "request": "read_dp", "arguments": [0]}"#).unwrap();
    /// assert_eq!((id, r), (3, Request::ReadDp(0)));
    /// ```
    pub fn parse(line: &str) -> Result<(i64, Request), Refused> {
        let refuse = |id: i64, why: &str| Refused {
            id,
            why: why.to_string(),
        };
        let value: Value =
            serde_json::from_str(line).map_err(|_| refuse(-1, "invalid request format"))?;
        let Some(object) = value.as_object() else {
            return Err(refuse(-1, "invalid request format"));
        };
        let id = object
            .get("id")
            .and_then(Value::as_i64)
            .ok_or_else(|| refuse(-1, "missing request ID"))?;
        let name = object
            .get("request")
            .and_then(Value::as_str)
            .ok_or_else(|| refuse(id, "missing request field"))?;
        let empty = Vec::new();
        let args = match object.get("arguments") {
            None => &empty,
            Some(Value::Array(args)) => args,
            Some(_) => return Err(refuse(id, "invalid request arguments format")),
        };
        let count = |n: usize| {
            if args.len() == n {
                Ok(())
            } else {
                Err(refuse(id, "malformed request; invalid number of arguments"))
            }
        };
        let word = |i: usize| {
            args[i]
                .as_u64()
                .and_then(|v| u32::try_from(v).ok())
                .ok_or_else(|| refuse(id, "an argument is not a 32-bit unsigned number"))
        };
        let request = match name {
            "hello" => {
                count(1)?;
                Request::Hello(args[0].as_u64().unwrap_or(0))
            }
            "readprop" => {
                count(1)?;
                let name = args[0]
                    .as_str()
                    .ok_or_else(|| refuse(id, "a property name is a string"))?;
                Request::ReadProperty(name.to_string())
            }
            "open" | "close" | "lock" | "unlock" | "flush" | "disconnect" => {
                count(0)?;
                Request::Nothing
            }
            "connect" => {
                count(1)?;
                Request::Connect(args[0].as_str().unwrap_or("").to_string())
            }
            "swj_sequence" => {
                count(2)?;
                let length = word(0)?;
                let bits = args[1]
                    .as_u64()
                    .ok_or_else(|| refuse(id, "the sequence's bits are a number"))?;
                Request::SwjSequence(length, bits)
            }
            "set_clock" => {
                count(1)?;
                Request::SetClock(args[0].as_u64().unwrap_or(0))
            }
            "reset" => {
                count(0)?;
                Request::Reset
            }
            "assert_reset" => {
                count(1)?;
                let on = args[0]
                    .as_bool()
                    .ok_or_else(|| refuse(id, "assert_reset takes true or false"))?;
                Request::AssertReset(on)
            }
            "is_reset_asserted" => {
                count(0)?;
                Request::IsResetAsserted
            }
            "read_dp" => {
                count(1)?;
                Request::ReadDp(word(0)?)
            }
            "write_dp" => {
                count(2)?;
                Request::WriteDp(word(0)?, word(1)?)
            }
            "read_ap" => {
                count(1)?;
                Request::ReadAp(word(0)?)
            }
            "write_ap" => {
                count(2)?;
                Request::WriteAp(word(0)?, word(1)?)
            }
            "read_ap_multiple" => {
                count(2)?;
                let n = word(1)? as usize;
                if n > MAX_COUNT {
                    return Err(refuse(id, "read_ap_multiple: at most 1024 words a request"));
                }
                Request::ReadApMultiple(word(0)?, n)
            }
            "write_ap_multiple" => {
                count(2)?;
                let values = args[1]
                    .as_array()
                    .ok_or_else(|| refuse(id, "write_ap_multiple takes a list of words"))?
                    .iter()
                    .map(|v| v.as_u64().and_then(|v| u32::try_from(v).ok()))
                    .collect::<Option<Vec<u32>>>()
                    .ok_or_else(|| refuse(id, "a value is not a 32-bit unsigned number"))?;
                Request::WriteApMultiple(word(0)?, values)
            }
            "get_memory_interface_for_ap" => {
                count(2)?;
                Request::MemoryInterface
            }
            "monitor" => {
                count(1)?;
                let text = args[0]
                    .as_str()
                    .ok_or_else(|| refuse(id, "monitor takes a string"))?;
                Request::Monitor(text.to_string())
            }
            _ => return Err(refuse(id, "unknown request type")),
        };
        Ok((id, request))
    }
}

/// A successful answer (`result` left out when there is none, as pyOCD's server does).
pub fn answer(id: i64, result: Option<Value>) -> String {
    let mut reply = json!({ "id": id, "status": 0 });
    if let Some(result) = result {
        reply["result"] = result;
    }
    reply.to_string()
}

/// A failed answer.
pub fn error(id: i64, status: Status, why: &str) -> String {
    json!({ "id": id, "status": status as i64, "error": why }).to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pyocds_requests_are_read_as_its_client_writes_them() {
        // json.dumps({"id": 7, "request": "write_ap", "arguments": (0x0C, 0x12345678)}), as
        // tcp_client_probe.py's _perform_request_without_raise writes it.
        let line = r#"{"id": 7, "request": "write_ap", "arguments": [12, 305419896]}"#;
        assert_eq!(
            Request::parse(line).unwrap(),
            (7, Request::WriteAp(0x0C, 0x1234_5678))
        );
        assert_eq!(
            Request::parse(r#"{"id": 0, "request": "open"}"#).unwrap(),
            (0, Request::Nothing)
        );
        assert_eq!(
            Request::parse(
                r#"{"id": 1, "request": "write_ap_multiple", "arguments": [12, [1, 2]]}"#
            )
            .unwrap(),
            (1, Request::WriteApMultiple(12, vec![1, 2]))
        );
    }

    #[test]
    fn a_bad_line_is_refused_with_pyocds_words_and_its_id() {
        let refused = |line: &str| Request::parse(line).unwrap_err();
        assert_eq!(refused("not json").why, "invalid request format");
        assert_eq!(refused("[1, 2]").id, -1);
        assert_eq!(refused(r#"{"request": "open"}"#).why, "missing request ID");
        let r = refused(r#"{"id": 4, "request": "format_disk"}"#);
        assert_eq!((r.id, r.why.as_str()), (4, "unknown request type"));
        let r = refused(r#"{"id": 5, "request": "read_dp", "arguments": [1, 2]}"#);
        assert!(r.why.contains("invalid number of arguments"), "{}", r.why);
        let r = refused(r#"{"id": 6, "request": "write_dp", "arguments": [4, -1]}"#);
        assert!(r.why.contains("32-bit"), "{}", r.why);
        let r = refused(r#"{"id": 6, "request": "write_dp", "arguments": [4, 4294967296]}"#);
        assert!(r.why.contains("32-bit"), "{}", r.why);
        let r = refused(r#"{"id": 8, "request": "read_ap_multiple", "arguments": [12, 99999]}"#);
        assert!(r.why.contains("at most 1024"), "{}", r.why);
    }

    #[test]
    fn answers_have_pyocds_keys() {
        assert_eq!(answer(3, None), r#"{"id":3,"status":0}"#);
        assert_eq!(
            answer(3, Some(json!(0x2BA0_1477_u32))),
            r#"{"id":3,"result":731911287,"status":0}"#
        );
        assert_eq!(
            error(9, Status::Fault, "FAULT"),
            r#"{"error":"FAULT","id":9,"status":12}"#
        );
    }
}
