//! A connection whose client stopped reading.
//!
//! A client that asks for a large file and never reads it fills the
//! socket's buffers; hyper's write then waits forever, and the connection
//! holds one of the server's `MAX_CONNECTIONS` slots for good. A few
//! hundred such clients and the server answers no one. `Stalled` gives a
//! write up when the client has taken nothing for [`WRITE_TIMEOUT`];
//! every write that goes through starts the wait anew, so a slow reader
//! that keeps reading is served to the end. (So is one that reads a byte
//! every few seconds: there is no minimum rate, and such a client holds its
//! slot as long as it keeps reading.)

use std::io;
use std::pin::Pin;
use std::task::{Context, Poll};
use std::time::Duration;

use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};
use tokio::net::TcpStream;
use tokio::time::Sleep;

/// How long a client may leave the server's writes waiting.
pub const WRITE_TIMEOUT: Duration = Duration::from_secs(10);

/// A TCP stream whose writes fail with `TimedOut` once a write has waited
/// [`WRITE_TIMEOUT`] for the client to read.
pub struct Stalled {
    stream: TcpStream,
    /// Started when a write first has to wait; cleared when one goes through.
    waiting: Option<Pin<Box<Sleep>>>,
}

impl Stalled {
    pub fn new(stream: TcpStream) -> Self {
        Stalled {
            stream,
            waiting: None,
        }
    }

    /// `poll` as the stream's own write, but failing once it has been
    /// pending for [`WRITE_TIMEOUT`].
    fn bounded<T>(
        &mut self,
        cx: &mut Context<'_>,
        poll: impl FnOnce(Pin<&mut TcpStream>, &mut Context<'_>) -> Poll<io::Result<T>>,
    ) -> Poll<io::Result<T>> {
        if let Poll::Ready(done) = poll(Pin::new(&mut self.stream), cx) {
            self.waiting = None;
            return Poll::Ready(done);
        }
        let timer = self
            .waiting
            .get_or_insert_with(|| Box::pin(tokio::time::sleep(WRITE_TIMEOUT)));
        match timer.as_mut().poll(cx) {
            Poll::Ready(()) => Poll::Ready(Err(io::Error::new(
                io::ErrorKind::TimedOut,
                "the client read nothing for the write timeout",
            ))),
            Poll::Pending => Poll::Pending,
        }
    }
}

impl AsyncRead for Stalled {
    fn poll_read(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        Pin::new(&mut self.stream).poll_read(cx, buf)
    }
}

impl AsyncWrite for Stalled {
    fn poll_write(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<io::Result<usize>> {
        self.bounded(cx, |stream, cx| stream.poll_write(cx, buf))
    }

    fn poll_write_vectored(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        bufs: &[io::IoSlice<'_>],
    ) -> Poll<io::Result<usize>> {
        self.bounded(cx, |stream, cx| stream.poll_write_vectored(cx, bufs))
    }

    fn is_write_vectored(&self) -> bool {
        self.stream.is_write_vectored()
    }

    fn poll_flush(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        self.bounded(cx, |stream, cx| stream.poll_flush(cx))
    }

    fn poll_shutdown(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.stream).poll_shutdown(cx)
    }
}
