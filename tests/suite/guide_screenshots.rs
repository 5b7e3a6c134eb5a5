//! The user guide's panel screenshots (`docs/images/panel/`) are the window's own: each is the
//! built-in character's window opened at one panel section (`--open-section`), four frames
//! drawn, the panel cropped out. This test takes them again and fails when a checked-in one no
//! longer matches what the window draws (`SKINSCOPE_BLESS=1` writes them), or when the guide and
//! the list below name different pictures.

use crate::common;

use std::path::{Path, PathBuf};

/// Each picture: the `--open-section` value, and the file under `docs/images/panel/`. The last
/// sections share pictures: the panel scrolls no further than its end.
const SHOTS: [(&str, &str); 17] = [
    ("file", "file-and-playback.png"),
    ("blend", "blend-and-transition.png"),
    ("external", "external-pose.png"),
    ("layers", "layers.png"),
    ("state-machine", "state-machine.png"),
    ("over-time", "over-time.png"),
    ("motion", "root-motion-and-ik.png"),
    ("matching", "motion-matching.png"),
    ("drivers", "pose-drivers.png"),
    ("muscles", "muscles.png"),
    ("ml", "ml-deformer.png"),
    ("physics", "physics.png"),
    ("view", "view.png"),
    ("environment", "environment.png"),
    ("record", "record.png"),
    ("debug", "morphs-debug-and-skinning.png"),
    ("skeleton", "skeleton-and-statistics.png"),
];

/// The window's size in the pictures, and the panel's width cropped out of it.
const WINDOW: &str = "960x640";
const PANEL_WIDTH: u32 = 330;

/// A pixel differs when a channel moves by more than this (antialiasing noise stays under it).
const PIXEL_TOLERANCE: u8 = 40;
/// The share of a picture's pixels that may differ: the statistics' measured times change from
/// run to run, and nothing else does.
const DIFFERING_SHARE: f64 = 0.03;

fn folder() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/images/panel")
}

/// The window opened at `section`, its panel cropped out.
fn panel_at(display: &str, section: &str) -> image::RgbImage {
    let args = [
        "--frames",
        "4",
        "--window-size",
        WINDOW,
        "--open-section",
        section,
    ];
    let img = common::window_picture(display, &args, None);
    image::imageops::crop_imm(&img, 0, 0, PANEL_WIDTH, img.height()).to_image()
}

/// The share of pixels of `a` and `b` (of one size) that differ beyond the tolerance.
fn differing_share(a: &image::RgbImage, b: &image::RgbImage) -> f64 {
    common::differing_share(a, b, PIXEL_TOLERANCE)
}

#[test]
fn the_guide_s_panel_pictures_are_what_the_window_draws() {
    let (display, _xvfb) = common::display();
    let bless = std::env::var_os("SKINSCOPE_BLESS").is_some();
    let mut stale = Vec::new();
    let mut taken = Vec::new();
    for (section, name) in SHOTS {
        let panel = panel_at(&display, section);
        let path = folder().join(name);
        if bless {
            std::fs::create_dir_all(folder()).unwrap();
            panel.save(&path).unwrap();
        } else {
            let kept = image::open(&path)
                .unwrap_or_else(|e| panic!("{}: {e} (SKINSCOPE_BLESS=1 writes it)", path.display()))
                .to_rgb8();
            let share = differing_share(&panel, &kept);
            if share > DIFFERING_SHARE {
                stale.push(format!("{name}: {:.1}% of pixels differ", share * 100.0));
            }
        }
        taken.push(panel);
    }
    assert!(
        stale.is_empty(),
        "stale pictures (SKINSCOPE_BLESS=1 cargo test --test suite guide_screenshots:: rewrites them):\n{}",
        stale.join("\n")
    );
    // Each section's picture opens on that section: no two have alike tops (below, where a
    // short section ends, neighbours may share the sections that follow).
    let top = |p: &image::RgbImage| image::imageops::crop_imm(p, 0, 0, PANEL_WIDTH, 120).to_image();
    for (i, a) in taken.iter().enumerate() {
        for (j, b) in taken.iter().enumerate().skip(i + 1) {
            let share = differing_share(&top(a), &top(b));
            assert!(
                share > DIFFERING_SHARE,
                "{} and {} are alike ({:.1}% differ): a section did not open",
                SHOTS[i].1,
                SHOTS[j].1,
                share * 100.0
            );
        }
    }
}

#[test]
fn the_guide_shows_every_picture_and_only_those() {
    let guide =
        std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/guide.md"))
            .unwrap();
    let shown: Vec<&str> = guide
        .match_indices("images/panel/")
        .map(|(at, m)| {
            let rest = &guide[at + m.len()..];
            &rest[..rest.find(')').unwrap()]
        })
        .collect();
    let listed: Vec<&str> = SHOTS.iter().map(|(_, name)| *name).collect();
    let mut sorted_shown = shown.clone();
    sorted_shown.sort_unstable();
    let mut sorted_listed = listed.clone();
    sorted_listed.sort_unstable();
    assert_eq!(
        sorted_shown, sorted_listed,
        "the guide's panel pictures and this test's list"
    );
}
