//! The offline embedding (hashed character 3-grams, L2-normalised) and the cosine of two
//! normalised vectors: the floor of every near-duplicate check and of `tasks similar`.

/// Embedding dimension of the offline fallback.
pub const DIM: usize = 256;

/// FNV-1a of `bytes` with a seed.
pub fn fnv(bytes: &[u8], seed: u64) -> u64 {
    let mut h = 0xcbf2_9ce4_8422_2325_u64 ^ seed;
    for b in bytes {
        h ^= u64::from(*b);
        h = h.wrapping_mul(0x0100_0000_01b3);
    }
    h
}

/// The offline embedding: hashed character 3-grams, L2-normalised.
pub fn embed(text: &str) -> [f32; DIM] {
    let mut v = [0f32; DIM];
    let lower: Vec<char> = format!("  {}  ", text.to_lowercase()).chars().collect();
    let mut buf = [0u8; 12];
    for w in lower.windows(3) {
        let mut n = 0;
        for c in w {
            n += c.encode_utf8(&mut buf[n..]).len();
        }
        v[(fnv(&buf[..n], 7) % DIM as u64) as usize] += 1.0;
    }
    let norm = v
        .iter()
        .map(|x| x * x)
        .sum::<f32>()
        .sqrt()
        .max(f32::MIN_POSITIVE);
    v.iter_mut().for_each(|x| *x /= norm);
    v
}

/// Cosine of two normalised vectors (eight independent accumulators so the loop vectorises).
pub fn cosine(a: &[f32], b: &[f32]) -> f32 {
    let mut acc = [0f32; 8];
    for (x, y) in a.chunks_exact(8).zip(b.chunks_exact(8)) {
        for i in 0..8 {
            acc[i] += x[i] * y[i];
        }
    }
    let tail: f32 = a
        .chunks_exact(8)
        .remainder()
        .iter()
        .zip(b.chunks_exact(8).remainder())
        .map(|(x, y)| x * y)
        .sum();
    acc.iter().sum::<f32>() + tail
}
