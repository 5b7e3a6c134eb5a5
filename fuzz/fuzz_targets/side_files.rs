//! Feeds arbitrary text to the two JSON side files' parsers, a state machine (against the
//! built-in character) and a ground: each returns its value or a problem with a JSON pointer,
//! never panics, hangs or allocates without bound; a ground's heights are finite and within its
//! documented extent.
#![no_main]

use std::sync::OnceLock;

use libfuzzer_sys::fuzz_target;
use skinscope::character::Character;

fn character() -> &'static Character {
    static BUILTIN: OnceLock<Character> = OnceLock::new();
    BUILTIN.get_or_init(|| skinscope::builtin::character().expect("the built-in character"))
}

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let _ = skinscope::graph::Graph::parse(text, character());
    if let Ok(ground) = skinscope::scene::Ground::parse(text) {
        for (x, z) in [(0.0, 0.0), (1.0, -1.0), (-3.5, 2.25)] {
            let h = ground.height(x, z);
            assert!(
                h.is_finite() && h.abs() <= 2.0 * skinscope::scene::MAX_EXTENT,
                "height {h}"
            );
        }
    }
});
