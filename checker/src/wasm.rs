//! The browser's entry points: plain `extern "C"` exports over UTF-8 buffers.
//!
//! No wasm-bindgen and no serde: the page's JavaScript allocates a buffer in
//! the module's memory ([`dumplab_alloc`]), writes one request record into it
//! and calls [`dumplab_call`], which returns a pointer to
//! `[length: u32 little-endian][UTF-8 verdict records]`; the page copies the
//! bytes out and frees both buffers ([`dumplab_free`]). Keeping the interface
//! this small keeps the module a few kilobytes.
//!
//! Requests and replies are described at [`crate::grade::respond`] and,
//! for the playground page's `dumplab_inspect` (built with the `playground`
//! feature into its own module, so every other page loads only grading), at
//! [`crate::inspect`].

use crate::grade::respond;

/// Puts `reply` in a fresh buffer as `[length: u32 LE][bytes]`.
fn reply_buffer(reply: &str) -> *mut u8 {
    let mut out = Vec::with_capacity(reply.len() + 4);
    out.extend_from_slice(&u32::try_from(reply.len()).unwrap_or(0).to_le_bytes());
    out.extend_from_slice(reply.as_bytes());
    out.shrink_to_fit();
    let ptr = out.as_mut_ptr();
    std::mem::forget(out);
    ptr
}

/// Allocates `len` bytes for the page to write a request into.
#[unsafe(no_mangle)]
pub extern "C" fn dumplab_alloc(len: usize) -> *mut u8 {
    let mut buf = Vec::<u8>::with_capacity(len.max(1));
    let ptr = buf.as_mut_ptr();
    std::mem::forget(buf);
    ptr
}

/// Frees a buffer from [`dumplab_alloc`] or [`dumplab_call`].
///
/// # Safety
/// `ptr` and `len` must be exactly what an earlier allocation returned and
/// asked for (for a reply: its length prefix plus 4), and it is freed once.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn dumplab_free(ptr: *mut u8, len: usize) {
    // SAFETY: the caller hands back a buffer allocated above with this capacity.
    drop(unsafe { Vec::from_raw_parts(ptr, 0, len.max(1)) });
}

/// Handles one request of `len` bytes at `ptr` and returns the reply buffer.
///
/// # Safety
/// `ptr..ptr+len` must be a buffer from [`dumplab_alloc`] holding the request.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn dumplab_call(ptr: *const u8, len: usize) -> *mut u8 {
    // SAFETY: the caller wrote `len` bytes at `ptr`.
    let input = unsafe { std::slice::from_raw_parts(ptr, len) };
    reply_buffer(&respond(std::str::from_utf8(input).unwrap_or("")))
}

/// The playground's request (`inspect` or `map`, see [`crate::inspect`]):
/// bytes in, one JSON object out, framed as [`dumplab_call`]'s reply.
///
/// # Safety
/// `ptr..ptr+len` must be a buffer from [`dumplab_alloc`] holding the request.
#[cfg(feature = "playground")]
#[unsafe(no_mangle)]
pub unsafe extern "C" fn dumplab_inspect(ptr: *const u8, len: usize) -> *mut u8 {
    // SAFETY: the caller wrote `len` bytes at `ptr`.
    let input = unsafe { std::slice::from_raw_parts(ptr, len) };
    reply_buffer(&crate::inspect::respond(input))
}
