//! The connection a host shares with the probe: a server such as the virtual board takes one
//! debugger, so a bench that sends its own commands (`monitor`) while probe-rs holds the probe
//! goes through the probe's connection, one request at a time, rather than opening a second.

use std::sync::{Arc, Mutex, MutexGuard, PoisonError, Weak};
use std::time::Duration;

use crate::client::{Client, ClientError};

/// One client, shared by the probe and the host.
#[derive(Clone, Debug)]
pub struct Connection(Arc<Mutex<Client>>);

impl Connection {
    /// Shares `client`.
    pub fn new(client: Client) -> Connection {
        Connection(Arc::new(Mutex::new(client)))
    }

    /// The client, for one exchange or several in a row (nothing else goes between them).
    pub fn lock(&self) -> MutexGuard<'_, Client> {
        // A panic while the lock was held leaves a client that is between requests (a request
        // and its answer are one call), so still usable.
        self.0.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// A handle that does not keep the connection open: the factory's, so that the client
    /// closes (`close`, then the socket) when the probe and the host's handles are gone.
    pub(crate) fn downgrade(&self) -> Weak<Mutex<Client>> {
        Arc::downgrade(&self.0)
    }

    /// The connection behind `weak`, while a probe or a host holds it.
    pub(crate) fn upgrade(weak: &Weak<Mutex<Client>>) -> Option<Connection> {
        weak.upgrade().map(Connection)
    }

    /// Runs a bench command of the server's (`monitor [text]`) and returns what it printed.
    /// The target runs on: the command goes between two DAP accesses, as on the board a bench
    /// wire changes beside a probe.
    pub fn monitor(&self, text: &str) -> Result<String, ClientError> {
        self.lock().monitor(text)
    }

    /// [`Connection::monitor`] with its answer awaited up to `timeout` (a command that waits on
    /// the target), the client's own bound restored after it.
    pub fn monitor_timeout(&self, text: &str, timeout: Duration) -> Result<String, ClientError> {
        let mut client = self.lock();
        let before = client.timeout();
        client.set_timeout(timeout)?;
        let output = client.monitor(text);
        client.set_timeout(before)?;
        output
    }
}
