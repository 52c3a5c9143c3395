//! A Unix-socket listener whose connections are TLS, for `axum::serve`: handshakes run in their own
//! tasks (a client that never speaks cannot hold the others up) and end after a deadline.

use std::sync::Arc;
use std::time::Duration;

use tokio::net::{UnixListener, UnixStream};
use tokio::sync::mpsc;
use tokio::task::JoinHandle;
use tokio_rustls::server::TlsStream;
use tokio_rustls::TlsAcceptor;

/// How long a client may take over its TLS handshake.
const HANDSHAKE: Duration = Duration::from_secs(10);

/// Accepted, handshaken TLS connections of one Unix socket.
pub struct TlsUnixListener {
    rx: mpsc::Receiver<TlsStream<UnixStream>>,
    acceptor_task: JoinHandle<()>,
}

impl TlsUnixListener {
    /// Starts accepting on `listener` with `config`.
    pub fn new(listener: UnixListener, config: Arc<rustls::ServerConfig>) -> Self {
        let (tx, rx) = mpsc::channel(64);
        let acceptor = TlsAcceptor::from(config);
        let acceptor_task = tokio::spawn(async move {
            loop {
                let Ok((stream, _)) = listener.accept().await else {
                    tokio::time::sleep(Duration::from_millis(50)).await;
                    continue;
                };
                let acceptor = acceptor.clone();
                let tx = tx.clone();
                tokio::spawn(async move {
                    if let Ok(Ok(tls)) =
                        tokio::time::timeout(HANDSHAKE, acceptor.accept(stream)).await
                    {
                        let _ = tx.send(tls).await;
                    }
                });
            }
        });
        Self { rx, acceptor_task }
    }
}

impl Drop for TlsUnixListener {
    fn drop(&mut self) {
        self.acceptor_task.abort();
    }
}

impl axum::serve::Listener for TlsUnixListener {
    type Io = TlsStream<UnixStream>;
    type Addr = ();

    async fn accept(&mut self) -> (Self::Io, Self::Addr) {
        match self.rx.recv().await {
            Some(io) => (io, ()),
            None => std::future::pending().await,
        }
    }

    fn local_addr(&self) -> std::io::Result<Self::Addr> {
        Ok(())
    }
}
