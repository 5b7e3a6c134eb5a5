//! The real window: `skinscope --frames 60 --screenshot out.png` opens it (under Xvfb when there
//! is no display; `./scripts/test.sh` installs Xvfb), draws 60 frames of the built-in character,
//! saves the last, and exits 0. The picture must show the panel and the character.

use crate::common;

use common::display;
use std::process::Command;

/// The window drawing `frames` frames of the built-in character at `size`, saved to `out`.
fn screenshot(
    display: &str,
    frames: &str,
    size: &str,
    out: &std::path::Path,
) -> std::process::Output {
    screenshot_with(display, &["--frames", frames, "--window-size", size], out)
}

/// The window run with `args`, its last frame saved to `out`.
fn screenshot_with(display: &str, args: &[&str], out: &std::path::Path) -> std::process::Output {
    common::window_screenshot(display, args, out)
        .output()
        .unwrap()
}

#[test]
fn the_window_shows_the_panel_and_the_character() {
    let (display, _xvfb) = display();
    let out = std::env::temp_dir().join(format!("skinscope-window-{}.png", std::process::id()));
    let result = screenshot(&display, "60", "960x640", &out);
    let stderr = String::from_utf8_lossy(&result.stderr);
    assert!(
        result.status.success(),
        "exit {:?}: {stderr}",
        result.status.code()
    );
    let img = image::open(&out).unwrap().to_rgb8();
    std::fs::remove_file(&out).ok();
    assert_eq!(img.dimensions(), (960, 640));
    let (w, h) = img.dimensions();
    let panel_width = 300;
    // The panel: a dark background with lighter text on it.
    let panel: Vec<[u8; 3]> = (0..h)
        .flat_map(|y| (0..panel_width).map(move |x| (x, y)))
        .map(|(x, y)| img.get_pixel(x, y).0)
        .collect();
    let dark = panel.iter().filter(|p| p.iter().all(|c| *c < 60)).count();
    let text = panel.iter().filter(|p| p.iter().all(|c| *c > 150)).count();
    assert!(
        dark > panel.len() / 2,
        "the panel is not there: {dark} dark pixels of {}",
        panel.len()
    );
    assert!(text > 500, "the panel has no text: {text} light pixels");
    // The 3D view: the mannequin's blue clothes and its skin, on a grey background.
    let view: Vec<[u8; 3]> = (0..h)
        .flat_map(|y| (panel_width + 40..w).map(move |x| (x, y)))
        .map(|(x, y)| img.get_pixel(x, y).0)
        .collect();
    let clothes = view
        .iter()
        .filter(|p| p[2] as i32 > p[0] as i32 + 40)
        .count();
    let skin = view
        .iter()
        .filter(|p| p[0] as i32 > p[2] as i32 + 40)
        .count();
    assert!(clothes > 5000, "no character: {clothes} blue pixels");
    assert!(skin > 500, "no head or hands: {skin} skin-coloured pixels");
}

/// The figures of the window's "CPU ms a frame: ..." line on stderr: total, then its parts.
fn cpu_times(stderr: &str) -> Vec<f32> {
    let line = stderr
        .lines()
        .find(|l| l.starts_with("skinscope: window CPU time a frame"))
        .unwrap_or_else(|| panic!("no CPU time reported: {stderr}"));
    let figures = line.split(':').nth(2).unwrap();
    figures
        .split(|c: char| !(c.is_ascii_digit() || c == '.'))
        .filter(|w| w.contains('.'))
        .map(|w| w.parse().unwrap())
        .collect()
}

#[test]
fn the_window_measures_its_cpu_time_a_frame_by_part() {
    let (display, _xvfb) = display();
    let out = std::env::temp_dir().join(format!("skinscope-cpu-{}.png", std::process::id()));
    let result = screenshot(&display, "30", "640x480", &out);
    std::fs::remove_file(&out).ok();
    let stderr = String::from_utf8_lossy(&result.stderr);
    assert!(result.status.success(), "{stderr}");
    let t = cpu_times(&stderr);
    let [total, panel, pose, overlays, uploads] = t[..] else {
        panic!("five figures expected: {t:?}")
    };
    // Every part was measured (a debug build on lavapipe takes well over a microsecond for each
    // but the overlays, which are empty without bones), and the parts fit in the whole.
    assert!(panel > 0.01 && pose > 0.001 && uploads > 0.01, "{t:?}");
    assert!(overlays >= 0.0, "{t:?}");
    let parts = panel + pose + overlays + uploads;
    assert!(
        parts <= total * 1.001 + 0.001,
        "parts {parts} of {total}: {t:?}"
    );
    assert!(
        parts > 0.5 * total,
        "the parts leave most of the frame out: {t:?}"
    );
}

#[test]
fn a_batch_run_opens_its_file_and_leaves_the_user_s_recent_files_as_they_were() {
    let (display, _xvfb) = display();
    let config = std::env::temp_dir().join(format!("skinscope-config-{}", std::process::id()));
    let list = config.join("skinscope/recent-files");
    std::fs::create_dir_all(list.parent().unwrap()).unwrap();
    std::fs::write(&list, "/somewhere/else.glb\n").unwrap();
    let fox = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/gltf/Fox/Fox.glb");
    let result = Command::new(env!("CARGO_BIN_EXE_skinscope"))
        .args([
            fox.to_str().unwrap(),
            "--frames",
            "3",
            "--window-size",
            "640x480",
        ])
        .env("DISPLAY", &display)
        .env("XDG_CONFIG_HOME", &config)
        .env_remove("WAYLAND_DISPLAY")
        .output()
        .unwrap();
    assert!(
        result.status.success(),
        "{}",
        String::from_utf8_lossy(&result.stderr)
    );
    // A test or a screenshot script (--frames) is not the user opening a file.
    let recent = std::fs::read_to_string(&list).unwrap();
    std::fs::remove_dir_all(&config).ok();
    assert_eq!(recent.lines().collect::<Vec<_>>(), ["/somewhere/else.glb"]);
}

#[test]
fn a_batch_run_fails_on_a_bad_file_and_checks_its_options_before_the_window_opens() {
    let dir = std::env::temp_dir().join(format!("skinscope-batch-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let run = |args: &[&str]| {
        let out = Command::new(env!("CARGO_BIN_EXE_skinscope"))
            .args(args)
            .env("DISPLAY", ":nowhere")
            .env_remove("WAYLAND_DISPLAY")
            .output()
            .unwrap();
        (
            out.status.code(),
            String::from_utf8_lossy(&out.stderr).into_owned(),
        )
    };
    // A file that fails to load: exit 2, its error, no screenshot of the built-in character.
    let shot = dir.join("ne.png");
    let (code, err) = run(&[
        "/nonexistent.glb",
        "--frames",
        "5",
        "--screenshot",
        shot.to_str().unwrap(),
    ]);
    assert_eq!(code, Some(2), "{err}");
    assert!(
        err.contains("/nonexistent.glb: cannot read the file"),
        "{err}"
    );
    assert!(!shot.exists());
    // Options refused before any window (there is no display here to open one on).
    for (args, says) in [
        (vec!["--frames", "0"], "0 frames: draw at least 1"),
        (vec!["--frames", "-2"], "-2 frames: draw at least 1"),
        (
            vec!["--frames", "2", "--screenshot", "x.bmp"],
            "the image must end in .png, .jpg or .jpeg",
        ),
    ] {
        let (code, err) = run(&args);
        assert_eq!(code, Some(2), "{args:?}: {err}");
        assert!(err.contains(says), "{args:?}: {err}");
    }
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn a_jpeg_screenshot_is_written_as_jpeg() {
    let (display, _xvfb) = display();
    let out = std::env::temp_dir().join(format!("skinscope-window-{}.jpg", std::process::id()));
    let result = screenshot(&display, "2", "320x240", &out);
    assert!(
        result.status.success(),
        "{}",
        String::from_utf8_lossy(&result.stderr)
    );
    let bytes = std::fs::read(&out).unwrap();
    std::fs::remove_file(&out).ok();
    assert_eq!(
        &bytes[..3],
        &[0xFF, 0xD8, 0xFF],
        "a JPEG starts with its SOI marker"
    );
    let img = image::load_from_memory(&bytes).unwrap();
    assert_eq!((img.width(), img.height()), (320, 240));
}

#[test]
fn the_window_and_render_draw_the_same_frame() {
    window_and_render_agree("plain", &[]);
}

#[test]
fn the_window_and_render_light_with_the_same_environment() {
    // A warm half and a cool half, turned a quarter and shown behind: the window prefilters it
    // as `render` does.
    let dir = std::env::temp_dir().join(format!("skinscope-window-sky-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let sky = dir.join("split.hdr");
    let halves = image::Rgb32FImage::from_fn(128, 64, |x, _| {
        image::Rgb(if x < 64 {
            [0.2, 0.3, 1.6]
        } else {
            [1.6, 0.3, 0.2]
        })
    });
    image::DynamicImage::ImageRgb32F(halves).save(&sky).unwrap();
    let sky = sky.to_str().unwrap();
    let args = ["--environment", sky, "--environment-rotation", "90"];
    window_and_render_agree(
        "sky",
        &[&args[..], &["--background-shows", "environment"]].concat(),
    );
    std::fs::remove_dir_all(&dir).ok();
}

/// The window, panel hidden, draws 30 frames: a batch run steps its clocks 1/60 s a frame, so
/// the walk is at 0.5 s. `render` poses walk at 0.5 s and frames its whole motion with the
/// window's 40-degree orbit camera: both go through `draw` and one renderer, so the images
/// agree within the golden-image tolerance; both are given `extra`.
fn window_and_render_agree(name: &str, extra: &[&str]) {
    let (display, _xvfb) = display();
    let dir = std::env::temp_dir().join(format!(
        "skinscope-same-frame-{name}-{}",
        std::process::id()
    ));
    std::fs::create_dir_all(&dir).unwrap();
    let (window, render) = (dir.join("window.png"), dir.join("render.png"));
    let args = ["--frames", "30", "--no-panel", "--window-size", "320x240"];
    let result = screenshot_with(&display, &[&args[..], extra].concat(), &window);
    assert!(
        result.status.success(),
        "{}",
        String::from_utf8_lossy(&result.stderr)
    );
    let rendered = Command::new(env!("CARGO_BIN_EXE_skinscope"))
        .args([
            "render",
            "--clip",
            "walk",
            "--time",
            "0.5",
            "--size",
            "320x240",
            "--fov-y",
            "40",
            "--out",
            render.to_str().unwrap(),
        ])
        .args(extra)
        .output()
        .unwrap();
    assert!(
        rendered.status.success(),
        "{}",
        String::from_utf8_lossy(&rendered.stderr)
    );
    let a = image::open(&window).unwrap().to_rgba8();
    let b = image::open(&render).unwrap().to_rgba8();
    assert_eq!(a.dimensions(), b.dimensions());
    let (a, b) = (a.into_raw(), b.into_raw());
    let mean = a
        .iter()
        .zip(&b)
        .map(|(x, y)| x.abs_diff(*y) as u64)
        .sum::<u64>() as f64
        / a.len() as f64;
    let far_off = a
        .chunks_exact(4)
        .zip(b.chunks_exact(4))
        .filter(|(p, q)| p.iter().zip(q.iter()).any(|(x, y)| x.abs_diff(*y) > 24))
        .count() as f64
        / (a.len() / 4) as f64;
    // Not a blank pair: the character covers part of the frame.
    let background = a.chunks_exact(4).filter(|p| p[..3] == a[..3]).count();
    assert!(
        background < a.len() / 4 * 9 / 10,
        "{background} background pixels"
    );
    assert!(
        mean <= 1.5 && far_off <= 0.01,
        "mean difference {mean:.3}, {:.2}% of pixels far off ({})",
        far_off * 100.0,
        dir.display()
    );
    std::fs::remove_dir_all(&dir).ok();
}
