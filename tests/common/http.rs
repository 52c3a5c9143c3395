//! A minimal HTTP/1.1 client over tokio for tests and the benchmark (keep-alive capable,
//! Content-Length bodies, which is what the state API server sends).
#![allow(dead_code)]

use std::net::SocketAddr;

use tokio::io::{AsyncBufReadExt, AsyncReadExt, AsyncWriteExt, BufReader};
use tokio::net::TcpStream;

/// A response.
pub struct Resp {
    pub status: u16,
    pub headers: Vec<(String, String)>,
    pub body: Vec<u8>,
}

impl Resp {
    pub fn json(&self) -> serde_json::Value {
        serde_json::from_slice(&self.body).unwrap_or_else(|e| {
            panic!(
                "non-JSON body ({e}): {}",
                String::from_utf8_lossy(&self.body)
            )
        })
    }
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(k, _)| k.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_str())
    }
}

/// One keep-alive connection.
pub struct Conn {
    io: BufReader<TcpStream>,
    scratch: Vec<u8>,
}

impl Conn {
    pub async fn connect(addr: SocketAddr) -> std::io::Result<Conn> {
        let s = TcpStream::connect(addr).await?;
        s.set_nodelay(true)?;
        Ok(Conn {
            io: BufReader::with_capacity(64 * 1024, s),
            scratch: Vec::new(),
        })
    }

    /// Sends a request and reads the body into a reused buffer: (status, body length).
    /// Used by the benchmark so the load generator does not allocate per response.
    pub async fn send_len(
        &mut self,
        method: &str,
        path: &str,
        headers: &[(&str, &str)],
    ) -> std::io::Result<(u16, usize)> {
        let mut req =
            format!("{method} {path} HTTP/1.1\r\nHost: localhost\r\nContent-Length: 0\r\n");
        for (k, v) in headers {
            req.push_str(&format!("{k}: {v}\r\n"));
        }
        req.push_str("\r\n");
        self.send_prebuilt(req.as_bytes()).await
    }

    /// Sends a request the caller built whole (request line, headers and body in one buffer,
    /// so one write) and reads the body into a reused buffer: (status, body length). The
    /// benchmark's load generator builds its requests once and sends them with this.
    pub async fn send_prebuilt(&mut self, request: &[u8]) -> std::io::Result<(u16, usize)> {
        self.io.get_mut().write_all(request).await?;
        let mut scratch = std::mem::take(&mut self.scratch);
        let r = self.read_response_into(&mut scratch).await;
        let len = scratch.len();
        self.scratch = scratch;
        Ok((r?.0, len))
    }

    pub async fn send(
        &mut self,
        method: &str,
        path: &str,
        headers: &[(&str, &str)],
        body: &[u8],
    ) -> std::io::Result<Resp> {
        let mut req = format!(
            "{method} {path} HTTP/1.1\r\nHost: localhost\r\nContent-Length: {}\r\n",
            body.len()
        );
        for (k, v) in headers {
            req.push_str(&format!("{k}: {v}\r\n"));
        }
        req.push_str("\r\n");
        let stream = self.io.get_mut();
        stream.write_all(req.as_bytes()).await?;
        stream.write_all(body).await?;
        self.read_response().await
    }

    async fn read_response(&mut self) -> std::io::Result<Resp> {
        let mut body = Vec::new();
        let (status, headers) = self.read_response_into(&mut body).await?;
        Ok(Resp {
            status,
            headers,
            body,
        })
    }

    async fn read_response_into(
        &mut self,
        body: &mut Vec<u8>,
    ) -> std::io::Result<(u16, Vec<(String, String)>)> {
        let mut line = String::new();
        self.io.read_line(&mut line).await?;
        let status: u16 = line
            .split_whitespace()
            .nth(1)
            .and_then(|s| s.parse().ok())
            .ok_or_else(|| std::io::Error::other(format!("bad status line {line:?}")))?;
        let mut headers = Vec::new();
        let mut len: Option<usize> = None;
        loop {
            line.clear();
            self.io.read_line(&mut line).await?;
            let l = line.trim_end();
            if l.is_empty() {
                break;
            }
            if let Some((k, v)) = l.split_once(':') {
                let (k, v) = (k.trim().to_string(), v.trim().to_string());
                if k.eq_ignore_ascii_case("content-length") {
                    len = v.parse().ok();
                }
                headers.push((k, v));
            }
        }
        body.clear();
        match len {
            Some(n) => {
                body.resize(n, 0);
                self.io.read_exact(body).await?;
            }
            None => {
                self.io.read_to_end(body).await?;
            }
        }
        Ok((status, headers))
    }
}

/// One request on a fresh connection.
pub async fn call(
    addr: SocketAddr,
    method: &str,
    path: &str,
    headers: &[(&str, &str)],
    body: &[u8],
) -> Resp {
    let mut c = Conn::connect(addr).await.expect("connect");
    c.send(method, path, headers, body).await.expect("request")
}

/// A multipart/form-data body with the given (field, file name, content type, data) parts.
pub fn multipart(parts: &[(&str, &str, &str, &[u8])]) -> (String, Vec<u8>) {
    let boundary = "----twboundary7d1f";
    let mut body = Vec::new();
    for (field, name, ctype, data) in parts {
        body.extend_from_slice(
            format!("--{boundary}\r\nContent-Disposition: form-data; name=\"{field}\"; filename=\"{name}\"\r\nContent-Type: {ctype}\r\n\r\n")
                .as_bytes(),
        );
        body.extend_from_slice(data);
        body.extend_from_slice(b"\r\n");
    }
    body.extend_from_slice(format!("--{boundary}--\r\n").as_bytes());
    (format!("multipart/form-data; boundary={boundary}"), body)
}
