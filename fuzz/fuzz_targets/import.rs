//! Feeds arbitrary bytes to the importer, as a .glb and as .gltf JSON: it must return a
//! character or an error, never panic (a panic inside is turned into an "internal error",
//! which this target reports as a crash), hang or run out of memory.
#![no_main]

use std::path::Path;

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    for name in ["fuzz.glb", "fuzz.gltf"] {
        if let Err(e) = skinscope::import::load_bytes(data, Path::new(name)) {
            assert!(
                !e.errors.iter().any(|p| p.message.contains("internal error")),
                "the importer panicked: {e}"
            );
        }
    }
});
