//! The event bus: writes go to the store in a transaction (with their events), then the newly
//! committed events are read back in `seq` order and handed to listeners. A listener therefore never
//! sees an event the store does not have, and a TUI in another process sees the same sequence.

use std::sync::Mutex;

use super::{Event, Store, StoreError, Tx};

/// A listener of committed events.
pub type Listener = Box<dyn Fn(&Event) + Send + Sync>;

struct Inner {
    store: Store,
    last_seq: i64,
}

/// Shared access to the store for concurrent workers, with event fan-out.
pub struct Bus {
    inner: Mutex<Inner>,
    listeners: Vec<Listener>,
}

impl Bus {
    /// Wraps an open store; only events appended from now on are fanned out.
    pub fn new(store: Store, listeners: Vec<Listener>) -> Result<Bus, StoreError> {
        let last_seq = store.last_event_seq()?;
        Ok(Bus {
            inner: Mutex::new(Inner { store, last_seq }),
            listeners,
        })
    }

    /// Runs `f` in one write transaction, then fans out the events it (and anyone else) committed.
    pub fn write<T>(
        &self,
        f: impl FnOnce(&Tx<'_>) -> Result<T, StoreError>,
    ) -> Result<T, StoreError> {
        let mut inner = self.inner.lock().unwrap_or_else(|p| p.into_inner());
        let out = inner.store.write(f)?;
        let events = inner.store.events_after(inner.last_seq, usize::MAX >> 1)?;
        if let Some(last) = events.last() {
            inner.last_seq = last.seq;
        }
        drop(inner);
        for e in &events {
            for l in &self.listeners {
                l(e);
            }
        }
        Ok(out)
    }

    /// Appends one event on its own.
    pub fn emit(
        &self,
        kind: &str,
        task: Option<&str>,
        payload: serde_json::Value,
    ) -> Result<(), StoreError> {
        self.write(|tx| tx.append_event(kind, task, &payload).map(|_| ()))
    }

    /// Reads from the store.
    pub fn read<T>(&self, f: impl FnOnce(&Store) -> T) -> T {
        let inner = self.inner.lock().unwrap_or_else(|p| p.into_inner());
        f(&inner.store)
    }
}
