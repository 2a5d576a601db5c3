//! Sealing answer keys so they are not in the page as plain text.
//!
//! The page carries each question's key XOR-ed with a keystream derived from
//! the question's id and content hash, then base64-encoded. This is not
//! cryptography (everything needed to unseal is in the page, and the wasm
//! checker does exactly that); it keeps answers out of view-source, search
//! and `grep`, which is all a self-graded course needs.

/// 64-bit FNV-1a of `bytes`, continuing from `state` (start with [`FNV_OFFSET`]).
pub fn fnv1a(state: u64, bytes: &[u8]) -> u64 {
    let mut h = state;
    for &b in bytes {
        h ^= u64::from(b);
        h = h.wrapping_mul(0x0000_0100_0000_01b3);
    }
    h
}

/// The FNV-1a offset basis: the hash of nothing.
pub const FNV_OFFSET: u64 = 0xcbf2_9ce4_8422_2325;

/// A hash of several fields, each terminated so that `("ab", "c")` and
/// `("a", "bc")` differ; rendered as 16 lowercase hex digits.
pub fn hash_fields(fields: &[&str]) -> String {
    let mut h = FNV_OFFSET;
    for f in fields {
        h = fnv1a(h, f.as_bytes());
        h = fnv1a(h, &[0xff]);
    }
    format!("{h:016x}")
}

/// SplitMix64: a small, well-mixed generator for the keystream.
struct SplitMix(u64);

impl SplitMix {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }
}

fn xor_stream(id: &str, salt: &str, data: &mut [u8]) {
    let seed = fnv1a(
        fnv1a(fnv1a(FNV_OFFSET, id.as_bytes()), &[0]),
        salt.as_bytes(),
    );
    let mut rng = SplitMix(seed);
    for chunk in data.chunks_mut(8) {
        let word = rng.next().to_le_bytes();
        for (b, k) in chunk.iter_mut().zip(word) {
            *b ^= k;
        }
    }
}

/// Seals `plain` for question `id` with `salt` (the question's content hash).
pub fn seal(id: &str, salt: &str, plain: &str) -> String {
    let mut bytes = plain.as_bytes().to_vec();
    xor_stream(id, salt, &mut bytes);
    base64_encode(&bytes)
}

/// Undoes [`seal`]; `None` when `sealed` is not base64 or does not unseal to UTF-8.
pub fn unseal(id: &str, salt: &str, sealed: &str) -> Option<String> {
    let mut bytes = base64_decode(sealed)?;
    xor_stream(id, salt, &mut bytes);
    String::from_utf8(bytes).ok()
}

const ALPHABET: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

/// Standard base64 with padding.
pub fn base64_encode(bytes: &[u8]) -> String {
    let mut out = String::with_capacity(bytes.len().div_ceil(3) * 4);
    for chunk in bytes.chunks(3) {
        let n = (u32::from(chunk[0]) << 16)
            | (u32::from(chunk.get(1).copied().unwrap_or(0)) << 8)
            | u32::from(chunk.get(2).copied().unwrap_or(0));
        for i in 0..4 {
            if i <= chunk.len() {
                out.push(char::from(ALPHABET[((n >> (18 - 6 * i)) & 63) as usize]));
            } else {
                out.push('=');
            }
        }
    }
    out
}

/// The value of base64 digit `c`: its place in [`ALPHABET`], by range
/// instead of a search of the alphabet (a build unseals every key).
fn sextet(c: u8) -> Option<u32> {
    let v = match c {
        b'A'..=b'Z' => c - b'A',
        b'a'..=b'z' => c - b'a' + 26,
        b'0'..=b'9' => c - b'0' + 52,
        b'+' => 62,
        b'/' => 63,
        _ => return None,
    };
    Some(u32::from(v))
}

/// Decodes standard base64 (padding optional, whitespace rejected).
pub fn base64_decode(text: &str) -> Option<Vec<u8>> {
    let text = text.trim_end_matches('=');
    let mut out = Vec::with_capacity(text.len() * 3 / 4);
    let mut acc = 0u32;
    let mut bits = 0u32;
    for c in text.bytes() {
        let v = sextet(c)?;
        acc = (acc << 6) | v;
        bits += 6;
        if bits >= 8 {
            bits -= 8;
            out.push((acc >> bits) as u8);
            acc &= (1 << bits) - 1;
        }
    }
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sextet_is_the_place_in_the_alphabet() {
        for c in 0..=255u8 {
            let place = ALPHABET.iter().position(|&a| a == c);
            assert_eq!(sextet(c), place.map(|p| p as u32), "byte {c}");
        }
    }

    #[test]
    fn base64_round_trips_every_length() {
        let data: Vec<u8> = (0u8..=255).collect();
        for n in 0..20 {
            let enc = base64_encode(&data[..n]);
            assert_eq!(
                base64_decode(&enc).as_deref(),
                Some(&data[..n]),
                "length {n}"
            );
        }
        assert_eq!(base64_encode(b"foobar"), "Zm9vYmFy");
        assert_eq!(base64_encode(b"fo"), "Zm8=");
        assert_eq!(base64_decode("not base64!"), None);
    }

    #[test]
    fn sealed_text_hides_the_plain_text_and_unseals() {
        let plain = "answer\thlo-optimized\n";
        let sealed = seal("q1", "abc", plain);
        assert!(!sealed.contains("hlo"));
        assert_eq!(unseal("q1", "abc", &sealed).as_deref(), Some(plain));
        assert_ne!(unseal("q2", "abc", &sealed).as_deref(), Some(plain));
        assert_ne!(seal("q1", "abd", plain), sealed);
    }

    #[test]
    fn field_hash_separates_fields() {
        assert_ne!(hash_fields(&["ab", "c"]), hash_fields(&["a", "bc"]));
        assert_eq!(hash_fields(&[]).len(), 16);
    }
}
