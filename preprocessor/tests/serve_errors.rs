//! `mdbook serve` with a broken course: the served page shows the errors
//! (with their `file:line:column`) instead of the stale page, and the course
//! comes back once fixed. Real pinned mdBook, real HTTP.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::io::{Read as _, Write as _};
use std::net::{TcpListener, TcpStream};
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

mod support;

/// Kills `mdbook serve` however the test ends.
struct Served(Child);

impl Drop for Served {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

fn copy_tree(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for entry in std::fs::read_dir(from).unwrap() {
        let path = entry.unwrap().path();
        let dest = to.join(path.file_name().unwrap());
        if path.is_dir() {
            copy_tree(&path, &dest);
        } else {
            std::fs::copy(&path, &dest).unwrap();
        }
    }
}

/// `GET /path` on the served book; the body, or `None` while not serving.
fn get(port: u16, path: &str) -> Option<String> {
    let mut stream = TcpStream::connect(("127.0.0.1", port)).ok()?;
    stream.set_read_timeout(Some(Duration::from_secs(5))).ok()?;
    write!(
        stream,
        "GET {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n"
    )
    .ok()?;
    let mut body = String::new();
    stream.read_to_string(&mut body).ok()?;
    Some(body)
}

/// Polls until the page holds `needle` (mdBook rebuilds on a file watcher).
fn wait_for(port: u16, path: &str, needle: &str) -> String {
    let start = Instant::now();
    let mut last = String::new();
    while start.elapsed() < Duration::from_secs(60) {
        if let Some(body) = get(port, path) {
            if body.contains(needle) {
                return body;
            }
            last = body;
        }
        std::thread::sleep(Duration::from_millis(200));
    }
    panic!("{path} never showed {needle:?}; last response:\n{last}");
}

#[test]
fn the_served_page_shows_build_errors_until_they_are_fixed() {
    // Outside the repository: mdBook's watcher skips what `.gitignore`
    // ignores, and the repository ignores `target/`.
    let book = std::env::temp_dir().join(format!("dumplab-serve-errors-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&book);
    copy_tree(
        &Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/books/broken"),
        &book,
    );
    let port = TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    let _served = Served(
        Command::new(support::mdbook())
            .arg("serve")
            .arg(&book)
            .args(["--port", &port.to_string(), "--dest-dir"])
            .arg(book.join("out"))
            .env(
                "MDBOOK_PREPROCESSOR__DUMPLAB__COMMAND",
                env!("CARGO_BIN_EXE_mdbook-dumplab"),
            )
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("mdbook serve"),
    );
    let page = wait_for(port, "/lesson.html", "The course does not build");
    assert!(page.contains("4 errors"), "{page}");
    assert!(
        page.contains("glossary/terms.toml:8:6: error: duplicate id `xla`"),
        "{page}"
    );
    assert!(page.contains("help: give each entry its own id"), "{page}");
    // Fix the course: the next build replaces the error page.
    std::fs::write(
        book.join("book.toml"),
        "[book]\ntitle = \"Fixed\"\nsrc = \"src\"\n\n[preprocessor.dumplab]\ncommand = \"mdbook-dumplab\"\nafter = [\"links\", \"index\"]\n",
    )
    .unwrap();
    std::fs::write(
        book.join("glossary/terms.toml"),
        "[[term]]\nid = \"xla\"\nterm = \"XLA\"\ndefinition = \"A compiler.\"\nchapter = \"lesson.md\"\n",
    )
    .unwrap();
    let page = wait_for(port, "/lesson.html", "data-term=\"xla\"");
    assert!(!page.contains("The course does not build"), "{page}");
    let _ = std::fs::remove_dir_all(&book);
}
