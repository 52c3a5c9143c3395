//! Serving a face behind its [`Access`]: a TCP listener that optionally speaks TLS (handshakes in
//! their own tasks, with a deadline), the client's address as a request extension ([`Peer`]), and
//! the [`guard`] middleware every request passes before any route.

use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;

use axum::extract::connect_info::Connected;
use axum::extract::{ConnectInfo, Request, State};
use axum::middleware::Next;
use axum::response::Response;
use axum::serve::IncomingStream;
use tokio::io::{AsyncRead, AsyncWrite};
use tokio::net::TcpListener;
use tokio::sync::mpsc;
use tokio::task::JoinHandle;
use tokio_rustls::TlsAcceptor;

use super::Access;

/// A connection's byte stream, plain TCP or TLS over it.
pub trait Stream: AsyncRead + AsyncWrite + Unpin + Send + 'static {}
impl<T: AsyncRead + AsyncWrite + Unpin + Send + 'static> Stream for T {}

/// The client's address, as the guard reads it from the request's extensions.
#[derive(Debug, Clone, Copy)]
pub struct Peer(pub SocketAddr);

impl Connected<IncomingStream<'_, GuardedListener>> for Peer {
    fn connect_info(stream: IncomingStream<'_, GuardedListener>) -> Self {
        Peer(*stream.remote_addr())
    }
}

/// How long a client may take over its TLS handshake.
const HANDSHAKE: Duration = Duration::from_secs(10);

/// A TCP listener for `axum::serve` whose connections are TLS when the face has a certificate.
pub struct GuardedListener {
    rx: mpsc::Receiver<(Box<dyn Stream>, SocketAddr)>,
    local: SocketAddr,
    task: JoinHandle<()>,
}

impl GuardedListener {
    /// Starts accepting on `listener`, with TLS when `access` has a certificate.
    pub fn new(listener: TcpListener, access: &Access) -> std::io::Result<Self> {
        let local = listener.local_addr()?;
        let acceptor = access.tls().map(TlsAcceptor::from);
        let (tx, rx) = mpsc::channel(64);
        let task = tokio::spawn(async move {
            loop {
                let Ok((stream, peer)) = listener.accept().await else {
                    tokio::time::sleep(Duration::from_millis(50)).await;
                    continue;
                };
                let _ = stream.set_nodelay(true);
                let tx = tx.clone();
                match acceptor.clone() {
                    None => {
                        let _ = tx.send((Box::new(stream) as Box<dyn Stream>, peer)).await;
                    }
                    Some(acceptor) => {
                        tokio::spawn(async move {
                            match tokio::time::timeout(HANDSHAKE, acceptor.accept(stream)).await {
                                Ok(Ok(tls)) => {
                                    let _ = tx.send((Box::new(tls) as Box<dyn Stream>, peer)).await;
                                }
                                Ok(Err(e)) => {
                                    tracing::warn!(%peer, error = %e, "TLS handshake failed")
                                }
                                Err(_) => tracing::warn!(%peer, "TLS handshake timed out"),
                            }
                        });
                    }
                }
            }
        });
        Ok(GuardedListener { rx, local, task })
    }
}

impl Drop for GuardedListener {
    fn drop(&mut self) {
        self.task.abort();
    }
}

impl axum::serve::Listener for GuardedListener {
    type Io = Box<dyn Stream>;
    type Addr = SocketAddr;

    async fn accept(&mut self) -> (Self::Io, Self::Addr) {
        match self.rx.recv().await {
            Some(conn) => conn,
            None => std::future::pending().await,
        }
    }

    fn local_addr(&self) -> std::io::Result<Self::Addr> {
        Ok(self.local)
    }
}

/// The middleware in front of every route: refuses a request without the face's credentials
/// (401, or 403 from an address outside `--allow-from`; logged and counted) and drops a role
/// header that did not come from this process's forwarder.
pub async fn guard(State(access): State<Arc<Access>>, mut req: Request, next: Next) -> Response {
    let peer = req
        .extensions()
        .get::<ConnectInfo<Peer>>()
        .map(|c| c.0 .0)
        .or_else(|| req.extensions().get::<Peer>().map(|p| p.0));
    if let Err(denied) = access.check(peer, req.headers()) {
        return access.refuse(denied, peer, req.method().as_str(), req.uri().path());
    }
    if super::forwarder::strip_untrusted_role(req.headers_mut()) {
        access.role_header_ignored(peer, req.uri().path());
    }
    next.run(req).await
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::access::AccessSettings;
    use tokio::io::{AsyncReadExt, AsyncWriteExt};

    /// The status line of `GET /` on a router behind `guard` served by [`GuardedListener`] with
    /// `allow_from` (the client is 127.0.0.1).
    async fn status_with(allow_from: &[&str]) -> String {
        let settings = AccessSettings {
            allow_from: allow_from.iter().map(|s| s.to_string()).collect(),
            ..AccessSettings::default()
        };
        let (access, _) = Access::resolve("test", [127, 0, 0, 1].into(), &settings).unwrap();
        let tcp = TcpListener::bind("127.0.0.1:0").await.unwrap();
        let addr = tcp.local_addr().unwrap();
        let listener = GuardedListener::new(tcp, &access).unwrap();
        let app = axum::Router::new()
            .route("/", axum::routing::get(|| async { "hello" }))
            .layer(axum::middleware::from_fn_with_state(access, guard));
        let server = tokio::spawn(async move {
            let _ = axum::serve(listener, app.into_make_service_with_connect_info::<Peer>()).await;
        });
        let mut s = tokio::net::TcpStream::connect(addr).await.unwrap();
        s.write_all(b"GET / HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
            .await
            .unwrap();
        let mut out = String::new();
        s.read_to_string(&mut out).await.unwrap();
        server.abort();
        out.lines().next().unwrap_or_default().to_string()
    }

    #[tokio::test]
    async fn the_guard_sees_the_clients_address_through_the_listener() {
        assert!(status_with(&["127.0.0.1/32"]).await.contains(" 200 "));
        assert!(status_with(&["10.0.0.0/8"]).await.contains(" 403 "));
        assert!(status_with(&[]).await.contains(" 200 "));
    }
}
