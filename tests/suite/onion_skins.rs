//! Onion skins (`render --onion`): each ghost is exactly the frame at its time (the silhouettes
//! drawn together are the union of plain renders at those times), warm before and cool after.

use crate::common;

use common::skinscope_bytes;
use skinscope_testkit::temp_dir;

const CAMERA: [&str; 6] = [
    "--eye",
    "2.6,1.1,2.6",
    "--target",
    "0,0.9,0",
    "--size",
    "240x180",
];

fn render(dir: &std::path::Path, name: &str, args: &[&str]) -> image::RgbaImage {
    let out = dir.join(format!("{name}.png"));
    let mut all = vec!["render", "--clip", "walk"];
    all.extend_from_slice(&CAMERA);
    all.extend_from_slice(args);
    all.extend_from_slice(&["--out", out.to_str().unwrap()]);
    let (code, _, err) = skinscope_bytes(&all);
    assert_eq!(code, 0, "{all:?}: {err}");
    image::open(&out).unwrap().to_rgba8()
}

fn mask(img: &image::RgbaImage) -> Vec<bool> {
    img.pixels().map(|p| p[0] > 127).collect()
}

#[test]
fn the_ghosts_silhouettes_are_the_frames_at_their_times() {
    let dir = temp_dir("onion-silhouettes");
    // Two ghosts before 0.5 s and one after, 6 frames (0.2 s) apart: 0.1, 0.3 and 0.7 s.
    let onion = render(
        &dir,
        "onion",
        &["--time", "0.5", "--onion", "2,1,6", "--silhouette"],
    );
    let mut union = vec![false; (240 * 180) as usize];
    let mut each = Vec::new();
    for t in ["0.1", "0.3", "0.5", "0.7"] {
        let m = mask(&render(&dir, t, &["--time", t, "--silhouette"]));
        for (u, x) in union.iter_mut().zip(&m) {
            *u |= x;
        }
        each.push(m);
    }
    let drawn = mask(&onion);
    let differ = drawn.iter().zip(&union).filter(|(a, b)| a != b).count();
    assert_eq!(
        differ, 0,
        "{differ} pixels differ from the union of the frames"
    );
    // The ghosts add to the frame's own silhouette.
    let own = each[2].iter().filter(|x| **x).count();
    let all = union.iter().filter(|x| **x).count();
    assert!(
        all > own + own / 10,
        "the ghosts add nothing: {own} then {all}"
    );
}

#[test]
fn ghosts_before_are_warm_and_after_cool_and_the_frame_is_drawn_over_them() {
    let dir = temp_dir("onion-colors");
    let plain = render(&dir, "plain", &["--time", "0.5"]);
    let before = render(&dir, "before", &["--time", "0.5", "--onion", "2,0,6"]);
    let after = render(&dir, "after", &["--time", "0.5", "--onion", "0,2,6"]);
    let frame = mask(&render(&dir, "frame", &["--time", "0.5", "--silhouette"]));
    let changed = |img: &image::RgbaImage| -> (usize, i64, usize) {
        let mut n = 0;
        let mut warmth = 0i64;
        let mut on_frame = 0;
        for ((p, q), inside) in img.pixels().zip(plain.pixels()).zip(&frame) {
            if p != q {
                n += 1;
                warmth += i64::from(p[0]) - i64::from(p[2]);
                on_frame += usize::from(*inside);
            }
        }
        (n, warmth, on_frame)
    };
    let (n_before, warm_before, on_before) = changed(&before);
    let (n_after, warm_after, on_after) = changed(&after);
    assert!(n_before > 200 && n_after > 200, "{n_before} {n_after}");
    assert!(warm_before > 0, "ghosts before are not warm");
    assert!(warm_after < 0, "ghosts after are not cool");
    // The frame's own pixels are its own: the ghosts show only around it (a hair of
    // anti-aliased edge aside).
    assert!(on_before * 50 < n_before, "{on_before} of {n_before}");
    assert!(on_after * 50 < n_after, "{on_after} of {n_after}");
}

#[test]
fn bad_onion_options_are_refused_by_name() {
    for (spec, says) in [
        ("2,2", "is not BEFORE,AFTER,STEP"),
        ("11,0,4", "0..=10"),
        ("1,1,0", "is not a step"),
        ("1,1,-2s", "positive number of seconds"),
    ] {
        let (code, _, err) = skinscope_bytes(&["render", "--onion", spec, "--out", "x.png"]);
        assert_eq!(code, 2, "{spec}");
        assert!(err.contains(says), "{spec}: {err}");
    }
    let (code, _, err) =
        skinscope_bytes(&["render", "--onion", "1,1,4", "--to", "1", "--out", "x.gif"]);
    assert_eq!(code, 2);
    assert!(err.contains("--onion draws on a still"), "{err}");
}
