//! `render --golden GOLDEN.png --tolerance T`: a still against a golden image, as CI compares
//! them: within the tolerance exit 0, past it exit 1, the difference image written either way.

use crate::common;

use common::{shared, skinscope};

fn render(args: &[&str]) -> (i32, String, String) {
    let fox = shared("Fox/Fox.glb");
    let mut all = vec!["render", fox.to_str().unwrap(), "--size", "320x240"];
    all.extend_from_slice(args);
    skinscope(&all)
}

#[test]
fn a_still_past_its_golden_image_exits_1_with_the_difference_image() {
    let dir = common::temp_dir("golden-option");
    let golden = dir.join("golden.png");
    let (code, _, err) = render(&["--out", golden.to_str().unwrap()]);
    assert_eq!(code, 0, "{err}");
    // The same frame: no difference, and an all-black difference image.
    let same = dir.join("same.png");
    let (code, out, err) = render(&[
        "--out",
        same.to_str().unwrap(),
        "--golden",
        golden.to_str().unwrap(),
    ]);
    assert_eq!(code, 0, "{err}");
    assert!(
        out.contains("mean difference 0.000") && out.contains("within"),
        "{out}"
    );
    let diff = image::open(dir.join("same-diff.png")).unwrap().to_rgba8();
    assert!(diff.pixels().all(|p| p.0 == [0, 0, 0, 255]));
    // Another frame of the walk: past a tight tolerance, within a loose one. The figures are
    // the test's own, from the two images.
    let moved = dir.join("moved.png");
    let args = |tolerance: &str| {
        let mut a = vec![
            "--out".to_owned(),
            moved.to_str().unwrap().to_owned(),
            "--time".to_owned(),
            "0.5".to_owned(),
            "--golden".to_owned(),
            golden.to_str().unwrap().to_owned(),
        ];
        if !tolerance.is_empty() {
            a.extend(["--tolerance".to_owned(), tolerance.to_owned()]);
        }
        a
    };
    let run = |tolerance: &str| {
        let a = args(tolerance);
        render(&a.iter().map(String::as_str).collect::<Vec<_>>())
    };
    let (code, out, _) = run("0.01,0%");
    assert_eq!(code, 1, "{out}");
    assert!(out.contains("PAST the tolerance"), "{out}");
    let a = image::open(&golden).unwrap().to_rgba8().into_raw();
    let b = image::open(&moved).unwrap().to_rgba8().into_raw();
    let mean = a
        .iter()
        .zip(&b)
        .map(|(x, y)| f64::from(x.abs_diff(*y)))
        .sum::<f64>()
        / a.len() as f64;
    let far: Vec<bool> = (a.chunks_exact(4).zip(b.chunks_exact(4)))
        .map(|(p, q)| p.iter().zip(q).any(|(x, y)| x.abs_diff(*y) > 24))
        .collect();
    assert!(mean > 0.01, "the frames differ ({mean})");
    assert!(
        out.contains(&format!("mean difference {mean:.3}")),
        "{mean:.3}: {out}"
    );
    // Far-off pixels are red in the difference image, and only they.
    let diff = image::open(dir.join("moved-diff.png")).unwrap().to_rgba8();
    for (p, f) in diff.pixels().zip(&far) {
        assert_eq!(p.0 == [255, 0, 0, 255], *f);
    }
    let share = far.iter().filter(|f| **f).count() as f64 / far.len() as f64;
    let loose = format!("{},{}%", mean + 0.1, share * 100.0 + 0.1);
    assert_eq!(run(&loose).0, 0);
    // Refusals: a golden of another size, one that is missing, a tolerance without a golden.
    let fox = shared("Fox/Fox.glb");
    let (code, _, err) = skinscope(&[
        "render",
        fox.to_str().unwrap(),
        "--out",
        moved.to_str().unwrap(),
        "--size",
        "100x100",
        "--golden",
        golden.to_str().unwrap(),
    ]);
    assert_eq!(code, 2);
    assert!(err.contains("320x240") && err.contains("100x100"), "{err}");
    let missing = dir.join("missing.png");
    let (code, _, err) = render(&[
        "--out",
        moved.to_str().unwrap(),
        "--golden",
        missing.to_str().unwrap(),
    ]);
    assert_eq!(code, 2);
    assert!(err.contains(missing.to_str().unwrap()), "{err}");
    let (code, _, err) = render(&["--out", moved.to_str().unwrap(), "--tolerance", "2"]);
    assert_eq!(code, 2);
    assert!(err.contains("--golden"), "{err}");
}
