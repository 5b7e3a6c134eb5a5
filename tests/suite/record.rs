//! Animated output (`render --to`): a sequence's frames are the stills `render --time` draws at
//! the frames' times; GIF and APNG decode back with their frame counts and delays; MP4 goes
//! through the ffmpeg on the PATH (a stand-in here that records what it was given), and its
//! absence is a clear error; nothing half-written is ever left.

use crate::common;

use std::path::{Path, PathBuf};

use common::{shared, skinscope, temp_dir};

fn cesium() -> String {
    shared("CesiumMan/CesiumMan.glb").display().to_string()
}

fn read_png(path: &Path) -> (u32, u32, Vec<u8>) {
    let image = image::open(path)
        .unwrap_or_else(|e| panic!("{}: {e}", path.display()))
        .to_rgba8();
    let (w, h) = image.dimensions();
    (w, h, image.into_raw())
}

/// The golden images' tolerance (tests/suite/render.rs): mean absolute difference per channel and the
/// fraction of pixels off by more than 24 in a channel.
fn difference(a: &[u8], b: &[u8]) -> (f64, f64) {
    assert_eq!(a.len(), b.len());
    let total: u64 = a
        .iter()
        .zip(b)
        .map(|(x, y)| u64::from(x.abs_diff(*y)))
        .sum();
    let far = a
        .chunks_exact(4)
        .zip(b.chunks_exact(4))
        .filter(|(p, q)| p.iter().zip(q.iter()).any(|(x, y)| x.abs_diff(*y) > 24))
        .count();
    (
        total as f64 / a.len() as f64,
        far as f64 / (a.len() / 4) as f64,
    )
}

fn assert_same_frame(what: &str, a: &[u8], b: &[u8]) {
    let (mean, far) = difference(a, b);
    assert!(
        mean <= 1.5 && far <= 0.01,
        "{what}: mean difference {mean:.3}, {:.2}% far off",
        far * 100.0
    );
}

fn leftovers(dir: &Path) -> Vec<PathBuf> {
    std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.to_string_lossy().contains(".partial"))
        .collect()
}

#[test]
fn a_two_second_sequence_at_10_fps_is_twenty_frames_each_the_still_at_its_time() {
    let dir = temp_dir("record-frames");
    let pattern = dir.join("walk/%02d.png");
    let (code, out, err) = skinscope(&[
        "render",
        &cesium(),
        "--out",
        &pattern.display().to_string(),
        "--from",
        "0",
        "--to",
        "2",
        "--fps",
        "10",
        "--size",
        "96x96",
    ]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("20 frames at 10 fps"), "{out}");
    let frame = |k: usize| dir.join(format!("walk/{k:02}.png"));
    assert!(frame(19).is_file() && !frame(20).exists(), "{out}");
    let frames: Vec<Vec<u8>> = (0..20).map(|k| read_png(&frame(k)).2).collect();
    let (first_last, _) = difference(&frames[0], &frames[19]);
    assert!(
        first_last > 1.0,
        "the walk does not move: {first_last:.3} between the first and last frames"
    );
    // Frame k against the still `render --time k/10` draws.
    for k in [0usize, 7, 13, 19] {
        let still = dir.join(format!("still{k}.png"));
        let (code, _, err) = skinscope(&[
            "render",
            &cesium(),
            "--out",
            &still.display().to_string(),
            "--time",
            &format!("{}", k as f32 / 10.0),
            "--size",
            "96x96",
        ]);
        assert_eq!(code, 0, "{err}");
        assert_same_frame(&format!("frame {k}"), &frames[k], &read_png(&still).2);
    }
    // Neighbouring frames differ (each frame is its own time, not a repeat).
    for k in 1..20 {
        let (mean, _) = difference(&frames[k - 1], &frames[k]);
        assert!(mean > 0.05, "frames {} and {k} are the same", k - 1);
    }
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn gif_and_apng_decode_back_with_their_frame_counts_and_delays() {
    let dir = temp_dir("record-animated");
    let render = |out: &Path, extra: &[&str]| {
        let out = out.display().to_string();
        let file = cesium();
        let mut args = vec![
            "render", &file, "--out", &out, "--to", "1", "--fps", "10", "--size", "80x64",
        ];
        args.extend_from_slice(extra);
        let (code, stdout, err) = skinscope(&args);
        assert_eq!(code, 0, "{err}");
        stdout
    };
    let apng = dir.join("walk.png");
    render(&apng, &[]);
    let decoder = image::codecs::png::PngDecoder::new(std::io::BufReader::new(
        std::fs::File::open(&apng).unwrap(),
    ))
    .unwrap();
    use image::AnimationDecoder;
    let frames: Vec<image::Frame> = decoder
        .apng()
        .unwrap()
        .into_frames()
        .collect::<Result<_, _>>()
        .unwrap();
    assert_eq!(frames.len(), 10);
    for f in &frames {
        let (n, d) = f.delay().numer_denom_ms();
        assert_eq!(n as f64 / d as f64, 100.0, "an APNG frame's delay");
        assert_eq!(f.buffer().dimensions(), (80, 64));
    }
    // Lossless: APNG frame 3 is the numbered sequence's frame 3.
    let numbered = dir.join("n/%d.png");
    render(&numbered, &[]);
    let third = read_png(&dir.join("n/3.png")).2;
    assert_eq!(frames[3].buffer().as_raw(), &third);

    for (palette, name) in [("frame", "walk.gif"), ("global", "global.gif")] {
        let gif = dir.join(name);
        render(&gif, &["--gif-palette", palette]);
        let mut options = gif::DecodeOptions::new();
        options.set_color_output(gif::ColorOutput::RGBA);
        let mut decoder = options
            .read_info(std::fs::File::open(&gif).unwrap())
            .unwrap();
        assert_eq!((decoder.width(), decoder.height()), (80, 64));
        let global = decoder.global_palette().map(<[u8]>::len);
        let mut count = 0;
        while let Some(frame) = decoder.read_next_frame().unwrap() {
            assert_eq!(frame.delay, 10, "a GIF frame's delay in hundredths");
            assert_eq!(
                frame.palette.is_some(),
                palette == "frame",
                "{palette}: a palette of the frame's own"
            );
            if count == 3 {
                // 256 colours, dithered: close to the lossless frame on average.
                let (mean, _) = difference(&frame.buffer, &third);
                assert!(mean < 4.0, "{palette}: the GIF's frame 3 is {mean:.2} off");
            }
            count += 1;
        }
        assert_eq!(count, 10, "{palette}");
        if palette == "global" {
            // The one palette learnt from every frame: 256 colours.
            assert_eq!(global, Some(256 * 3));
        }
    }
    assert!(leftovers(&dir).is_empty(), "{:?}", leftovers(&dir));
    std::fs::remove_dir_all(&dir).ok();
}

/// A stand-in `ffmpeg` in `dir`: it writes its arguments and the number of bytes it was piped
/// into its output (the last argument), or fails as an ffmpeg without libx264 does.
fn fake_ffmpeg(dir: &Path, fail: bool) {
    use std::os::unix::fs::PermissionsExt;
    let script = if fail {
        "#!/bin/sh\nPATH=/usr/bin:/bin\ncat > /dev/null\necho \"Unknown encoder 'libx264'\" >&2\nexit 1\n".to_string()
    } else {
        "#!/bin/sh\nPATH=/usr/bin:/bin\nfor a; do out=$a; done\nbytes=$(wc -c | tr -d ' ')\necho \"$* bytes=$bytes\" > \"$out\"\n".to_string()
    };
    let path = dir.join("ffmpeg");
    std::fs::write(&path, script).unwrap();
    std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755)).unwrap();
}

fn render_mp4(path_dir: &Path, out: &Path) -> (i32, String, String) {
    let run = std::process::Command::new(env!("CARGO_BIN_EXE_skinscope"))
        .args(["render", &cesium(), "--out"])
        .arg(out)
        .args([
            "--to",
            "0.5",
            "--fps",
            "10",
            "--size",
            "33x20",
            "--turntable",
            "90",
        ])
        .env("PATH", path_dir)
        .output()
        .unwrap();
    (
        run.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&run.stdout).into_owned(),
        String::from_utf8_lossy(&run.stderr).into_owned(),
    )
}

#[test]
fn mp4_goes_through_the_ffmpeg_on_the_path_and_its_absence_is_a_clear_error() {
    let dir = temp_dir("record-mp4");
    let out = dir.join("walk.mp4");
    let empty = dir.join("no-ffmpeg");
    std::fs::create_dir_all(&empty).unwrap();
    let (code, _, err) = render_mp4(&empty, &out);
    assert_ne!(code, 0);
    assert!(
        err.contains("ffmpeg, which is not on the PATH") && err.contains("apt-get install ffmpeg"),
        "{err}"
    );
    assert!(!out.exists());

    let failing = dir.join("failing");
    std::fs::create_dir_all(&failing).unwrap();
    fake_ffmpeg(&failing, true);
    let (code, _, err) = render_mp4(&failing, &out);
    assert_ne!(code, 0);
    assert!(err.contains("Unknown encoder 'libx264'"), "{err}");
    assert!(!out.exists() && leftovers(&dir).is_empty());

    let working = dir.join("working");
    std::fs::create_dir_all(&working).unwrap();
    fake_ffmpeg(&working, false);
    let (code, stdout, err) = render_mp4(&working, &out);
    assert_eq!(code, 0, "{err}");
    assert!(stdout.contains("5 frames at 10 fps (MP4"), "{stdout}");
    let said = std::fs::read_to_string(&out).unwrap();
    // Five 33x20 RGBA frames, the odd width padded to even for yuv420p.
    assert!(
        said.contains(&format!("bytes={}", 5 * 33 * 20 * 4)),
        "{said}"
    );
    for arg in [
        "-f rawvideo -pix_fmt rgba",
        "-video_size 33x20",
        "-framerate 10",
        "pad=ceil(iw/2)*2:ceil(ih/2)*2",
        "-c:v libx264 -pix_fmt yuv420p",
    ] {
        assert!(said.contains(arg), "{arg}: {said}");
    }
    assert!(leftovers(&dir).is_empty());
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn a_turntable_starts_at_the_still_camera_and_turns_from_there() {
    let dir = temp_dir("record-turntable");
    let run = |name: &str, extra: &[&str]| {
        let out = dir.join(name).display().to_string();
        let file = cesium();
        let mut args = vec![
            "render", &file, "--out", &out, "--to", "0.4", "--fps", "10", "--size", "64x64",
            "--clip", "0",
        ];
        args.extend_from_slice(extra);
        let (code, _, err) = skinscope(&args);
        assert_eq!(code, 0, "{err}");
    };
    run("still/%d.png", &[]);
    run("turn/%d.png", &["--turntable", "360"]);
    let frame = |d: &str, k: usize| read_png(&dir.join(format!("{d}/{k}.png"))).2;
    assert_same_frame(
        "the turntable's first frame",
        &frame("still", 0),
        &frame("turn", 0),
    );
    for k in 1..4 {
        let (mean, _) = difference(&frame("still", k), &frame("turn", k));
        assert!(mean > 1.0, "frame {k} at {}° did not turn", 90 * k);
    }
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn sequence_options_that_cannot_work_are_refused_before_any_output() {
    let dir = temp_dir("record-refused");
    let out = |name: &str| dir.join(name).display().to_string();
    let file = cesium();
    let cases: Vec<(Vec<String>, &str)> = vec![
        (vec![out("a.gif")], "give --to SECS"),
        (
            vec![out("a.jpg"), "--to".into(), "1".into()],
            "a sequence is written as .gif",
        ),
        (
            vec![
                out("a.gif"),
                "--from".into(),
                "2".into(),
                "--to".into(),
                "1".into(),
            ],
            "--to 1 must be later than --from 2",
        ),
        (
            vec![
                out("a.gif"),
                "--to".into(),
                "1".into(),
                "--time".into(),
                "0.5".into(),
            ],
            "--time 0.5 poses one frame",
        ),
        (
            vec![
                out("a.gif"),
                "--to".into(),
                "1".into(),
                "--from".into(),
                "-1".into(),
            ],
            "starts at 0 s or later",
        ),
        (
            vec![out("f/%d%d.png"), "--to".into(), "1".into()],
            "one frame number in a pattern",
        ),
        (
            vec![out("f/%x.png"), "--to".into(), "1".into()],
            "a frame pattern is %d or %0Nd",
        ),
        (
            vec![out("a.png"), "--turntable".into(), "90".into()],
            "give --to SECS",
        ),
        (
            vec![
                out("a.gif"),
                "--to".into(),
                "1".into(),
                "--fps".into(),
                "0".into(),
            ],
            "--fps",
        ),
        (
            vec![
                out("a.gif"),
                "--to".into(),
                "900".into(),
                "--fps".into(),
                "240".into(),
            ],
            "at most 600 s",
        ),
        (
            vec![
                out("a.gif"),
                "--to".into(),
                "10".into(),
                "--gif-palette".into(),
                "global".into(),
                "--size".into(),
                "4096x4096".into(),
            ],
            "holds them all until the last: 300 frames of 4096x4096",
        ),
    ];
    for (extra, expected) in cases {
        let mut args = vec!["render".to_string(), file.clone(), "--out".into()];
        args.extend(extra);
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        let (code, _, err) = skinscope(&args);
        assert_ne!(code, 0, "{args:?}");
        assert!(err.contains(expected), "{args:?}: {err}");
    }
    let left: Vec<_> = std::fs::read_dir(&dir).unwrap().collect();
    assert!(left.is_empty(), "{left:?}");
    std::fs::remove_dir_all(&dir).ok();
}

/// The window's loop for a recording: the panel, `Viewer::frame`, then (as the window does
/// after drawing) the recording's frame drawn offscreen and handed back; the clip time each
/// recorded frame was drawn at is kept.
struct Window {
    viewer: skinscope::viewer::Viewer,
    gpu: skinscope::render::gpu::Gpu,
    frames: skinscope::draw::headless::Frames,
    drawn_at: Vec<f32>,
}

fn recording_window(viewer: skinscope::viewer::Viewer) -> egui_kittest::Harness<'static, Window> {
    let gpu = skinscope::render::gpu::Gpu::headless().unwrap();
    let frames = skinscope::draw::headless::Frames::new(&viewer.character);
    let window = Window {
        viewer,
        gpu,
        frames,
        drawn_at: Vec::new(),
    };
    egui_kittest::Harness::builder()
        .with_size((1100.0, 1800.0))
        .build_ui_state(
            |ui, w: &mut Window| {
                let (commands, _) = skinscope::ui::show(ui, &mut w.viewer);
                w.viewer.frame(commands, 1.0 / 60.0);
                let Some(frame) = w.viewer.recording_frame() else {
                    return;
                };
                let (min, max) = w.viewer.derived.rest_bounds;
                let aspect = frame.size.0 as f32 / frame.size.1 as f32;
                let camera = skinscope::render::camera::Camera::framing(min, max, 40.0, aspect);
                let camera = skinscope::draw::headless::turned(camera, frame.turn_degrees);
                let options = skinscope::app::draw_options(&w.viewer.controls);
                let drawn = skinscope::draw::headless::Drawn {
                    camera: &camera,
                    size: frame.size,
                    options: &options,
                    bones: &[],
                    colors: None,
                    legend: None,
                    ddm: None,
                    environment: None,
                    stands_at: w.viewer.locomotion().placement().position,
                };
                w.drawn_at.push(w.viewer.time_secs());
                let v = &w.viewer;
                let pixels = w.frames.draw(&w.gpu, &v.character, &v.pose, &drawn);
                w.viewer.recorded(pixels.map_err(|e| e.to_string()));
            },
            window,
        )
}

#[test]
fn the_panels_record_writes_the_view_from_its_start_one_frame_time_a_window_frame() {
    use egui_kittest::kittest::Queryable;
    let dir = temp_dir("record-panel");
    let out = dir.join("panel.png");
    let character = skinscope::import::load(&shared("CesiumMan/CesiumMan.glb")).unwrap();
    let mut h = recording_window(skinscope::viewer::Viewer::new(character, None));
    h.get_by_label("Record").click();
    h.run();
    {
        let r = &mut h.state_mut().viewer.controls.record;
        r.path = out.display().to_string();
        (r.from_secs, r.to_secs, r.fps, r.size) = (0.5, 1.0, 10, (64, 48));
    }
    h.run();
    h.get_by_label("Record to path").click();
    for _ in 0..40 {
        h.step();
        if out.exists() {
            break;
        }
    }
    h.run();
    h.get_by_label_contains("5 frames");
    let times = &h.state().drawn_at;
    assert_eq!(times.len(), 5, "{times:?}");
    for (k, t) in times.iter().enumerate() {
        let wanted = 0.5 + k as f32 * 0.1;
        assert!(
            (t - wanted).abs() < 1e-4,
            "frame {k} drawn at {t} s, not {wanted}"
        );
    }
    let decoder = image::codecs::png::PngDecoder::new(std::io::BufReader::new(
        std::fs::File::open(&out).unwrap(),
    ))
    .unwrap();
    use image::AnimationDecoder;
    assert_eq!(decoder.apng().unwrap().into_frames().count(), 5);

    // Stopped part way, a recording leaves nothing.
    let stopped = dir.join("stopped.gif");
    h.state_mut().viewer.controls.record.path = stopped.display().to_string();
    h.state_mut().viewer.controls.record.to_secs = 60.0;
    h.run();
    h.get_by_label("Record to path").click();
    h.step();
    h.step();
    h.get_by_label("Stop").click();
    h.run();
    h.get_by_label_contains("nothing written");
    assert!(!stopped.exists() && leftovers(&dir).is_empty());
    std::fs::remove_dir_all(&dir).ok();
}
