//! The recipes (`docs/recipes.md`) work as written: every `skinscope ...` command in them runs on
//! the built-in mannequin, saved as `character.glb` beside a `take.bvh` of its walk, in a folder
//! of its own, and writes what it says. The placeholders a reader fills in are filled in here:
//! `NAME` is the walk, `T` half a second, `FILE` the character.

use crate::common;

use std::path::Path;
use std::process::Command;

/// The inline commands of `markdown`: each code span that starts with `skinscope `, its line
/// breaks and indentation joined into single spaces.
fn commands(markdown: &str) -> Vec<String> {
    let mut found = Vec::new();
    let mut rest = markdown;
    while let Some(open) = rest.find('`') {
        let after = &rest[open + 1..];
        // A fence (```) is a block, not a span: skip to its end.
        if let Some(body) = after.strip_prefix("``") {
            rest = body.find("```").map_or("", |close| &body[close + 3..]);
            continue;
        }
        let Some(close) = after.find('`') else {
            break;
        };
        let span = after[..close]
            .split_whitespace()
            .collect::<Vec<_>>()
            .join(" ");
        if span.starts_with("skinscope ") {
            found.push(span);
        }
        rest = &after[close + 1..];
    }
    found
}

/// `command` with the reader's placeholders filled in, as arguments.
fn filled(command: &str) -> Vec<String> {
    command
        .split(' ')
        .skip(1)
        .map(|word| match word {
            "NAME" => "walk".to_owned(),
            "T" => "0.5".to_owned(),
            "FILE" => "character.glb".to_owned(),
            other => other.to_owned(),
        })
        .collect()
}

/// An image's size: a GIF's (with more than one frame, as the recipe's turntable has) or any
/// other format `image` reads.
fn image_size(path: &Path) -> Result<(u32, u32), String> {
    if path.extension().is_some_and(|e| e == "gif") {
        let file = std::fs::File::open(path).map_err(|e| e.to_string())?;
        let mut decoder = gif::DecodeOptions::new()
            .read_info(file)
            .map_err(|e| e.to_string())?;
        let size = (u32::from(decoder.width()), u32::from(decoder.height()));
        let mut frames = 0;
        while decoder
            .read_next_frame()
            .map_err(|e| e.to_string())?
            .is_some()
        {
            frames += 1;
        }
        return if frames > 1 {
            Ok(size)
        } else {
            Err(format!("{frames} frames"))
        };
    }
    image::image_dimensions(path).map_err(|e| e.to_string())
}

#[test]
fn the_recipes_commands_run_as_written() {
    let recipes =
        std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/recipes.md"))
            .unwrap();
    let commands = commands(&recipes);
    // Each recipe but the CI script (a shell block) has at least one.
    assert!(commands.len() >= 10, "{commands:?}");

    let dir = common::temp_dir("recipes");
    let c = skinscope::builtin::character().unwrap();
    std::fs::write(dir.join("character.glb"), skinscope::builtin::generate()).unwrap();
    let walk = c.clips.iter().find(|k| k.clip.name() == "walk").unwrap();
    std::fs::write(dir.join("take.bvh"), common::bvh_of(&c, &walk.clip)).unwrap();

    for command in &commands {
        let args = filled(command);
        let out = Command::new(env!("CARGO_BIN_EXE_skinscope"))
            .args(&args)
            .current_dir(&dir)
            .output()
            .unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(
            out.status.code(),
            Some(0),
            "`{command}` exits {:?}: {stderr}",
            out.status.code()
        );
        let stdout = String::from_utf8_lossy(&out.stdout);
        if args.iter().any(|a| a == "--json") {
            let json: serde_json::Value = serde_json::from_str(&stdout)
                .unwrap_or_else(|e| panic!("`{command}`: not JSON ({e}): {stdout}"));
            assert!(json.is_object(), "`{command}`: {json}");
        }
        // What it writes is there and reads as its format: a character with clips added, or
        // an image.
        if let Some(at) = args.iter().position(|a| a == "--out") {
            let path = dir.join(&args[at + 1]);
            if path.extension().is_some_and(|e| e == "glb") {
                let written = skinscope::import::load(&path)
                    .unwrap_or_else(|e| panic!("`{command}` wrote no character: {e}"));
                assert_eq!(written.clips.len(), c.clips.len() + 1, "`{command}`");
                continue;
            }
            let (width, height) = image_size(&path).unwrap_or_else(|e| {
                panic!("`{command}` wrote no image at {}: {e}", path.display())
            });
            assert!(width >= 64 && height >= 64, "`{command}`: {width}x{height}");
        }
    }
    // The commands that describe rather than draw said something about the character.
    let inspect = Command::new(env!("CARGO_BIN_EXE_skinscope"))
        .args(["inspect", "character.glb", "--clips-from", "take.bvh"])
        .current_dir(&dir)
        .output()
        .unwrap();
    let listed = String::from_utf8_lossy(&inspect.stdout);
    assert!(listed.contains("pelvis"), "{listed}");
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn the_command_finder_reads_spans_across_lines_and_skips_blocks() {
    let md = "Run `skinscope render a.glb --out\n   b.png` then `--flag` and\n```sh\nskinscope check x\n```\n`skinscope inspect FILE --json`.";
    assert_eq!(
        commands(md),
        [
            "skinscope render a.glb --out b.png",
            "skinscope inspect FILE --json"
        ]
    );
    assert_eq!(
        filled("skinscope palette c.glb --clip NAME --time T"),
        ["palette", "c.glb", "--clip", "walk", "--time", "0.5"]
    );
}

/// The shell block under `heading` in the recipes.
fn block_under(markdown: &str, heading: &str) -> String {
    let at = markdown
        .find(heading)
        .unwrap_or_else(|| panic!("no {heading}"));
    let rest = &markdown[at..];
    let open = rest.find("```sh\n").unwrap() + 6;
    let close = rest[open..].find("```").unwrap();
    rest[open..open + close].to_owned()
}

#[test]
fn the_ci_recipe_checks_diffs_and_compares_a_folder_of_assets() {
    let recipes =
        std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/recipes.md"))
            .unwrap();
    let script = block_under(&recipes, "## Check assets in CI");
    let dir = common::temp_dir("recipes-ci");
    for sub in ["assets", "baseline", "golden", "bin"] {
        std::fs::create_dir_all(dir.join(sub)).unwrap();
    }
    // `skinscope` on the PATH, as the recipe calls it.
    let bin = dir.join("bin/skinscope");
    if !bin.exists() {
        std::os::unix::fs::symlink(env!("CARGO_BIN_EXE_skinscope"), &bin).unwrap();
    }
    let fox = common::shared("Fox/Fox.glb");
    std::fs::copy(&fox, dir.join("assets/fox.glb")).unwrap();
    std::fs::copy(&fox, dir.join("baseline/fox.glb")).unwrap();
    let golden = dir.join("golden/fox.png");
    let (code, _, err) = common::skinscope(&[
        "render",
        fox.to_str().unwrap(),
        "--size",
        "640x360",
        "--out",
        golden.to_str().unwrap(),
    ]);
    assert_eq!(code, 0, "{err}");
    let run = || {
        let path = format!(
            "{}:{}",
            dir.join("bin").display(),
            std::env::var("PATH").unwrap()
        );
        Command::new("bash")
            .arg("-c")
            .arg(&script)
            .current_dir(&dir)
            .env("PATH", path)
            .output()
            .unwrap()
    };
    // The Fox as released: every report passes.
    let out = run();
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let read = |name: &str| std::fs::read_to_string(dir.join("reports").join(name)).unwrap();
    assert!(read("check-fox.xml").contains("failures=\"0\""));
    assert!(read("diff-fox.xml").contains("failures=\"0\""));
    assert!(read("render-fox.txt").contains("within"));
    assert!(dir.join("reports/fox-diff.png").is_file());
    // This version's Fox scaled up a fifth by its armature (the node above its joints: a re-export
    // with another unit scale): the check passes (one common offset is information), the diff and
    // the render fail; the script exits 1.
    let mut raw = common::RawGltf::read_glb(&fox);
    assert_eq!(raw.json["nodes"][0]["name"], "root");
    raw.json["nodes"][0]["scale"] = serde_json::json!([1.2, 1.2, 1.2]);
    std::fs::write(dir.join("assets/fox.glb"), raw.to_glb()).unwrap();
    let out = run();
    assert_eq!(out.status.code(), Some(1));
    assert!(read("check-fox.xml").contains("failures=\"0\""));
    assert!(
        read("diff-fox.xml").contains("failures=\"1\""),
        "{}",
        read("diff-fox.xml")
    );
    assert!(
        read("render-fox.txt").contains("PAST the tolerance"),
        "{}",
        read("render-fox.txt")
    );
}

/// The retarget recipe's pictures are the window's and `render`'s own: CesiumMan opened beside the built-in
/// character in the Retarget section (`SKINSCOPE_BLESS=1` writes it).
#[test]
fn the_retarget_recipe_picture_is_what_the_window_draws() {
    let (display, _xvfb) = common::display();
    let out = common::temp_dir("recipe-retarget").join("shot.png");
    // Run in CesiumMan's folder, so that the source field shows its name alone.
    let folder = common::shared("CesiumMan");
    let args = [
        "--frames",
        "4",
        "--window-size",
        "960x760",
        "--retarget-from",
        "CesiumMan.glb",
    ];
    let shot = common::window_picture(&display, &args, Some(&folder));
    // The panel and the character's upper half: the statistics below change from run to run.
    let shot = image::imageops::crop_imm(&shot, 0, 0, 960, 600).to_image();
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/images/recipes/retarget-map.png");
    if std::env::var_os("SKINSCOPE_BLESS").is_some() {
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        shot.save(&path).unwrap();
    }
    let kept = image::open(&path)
        .unwrap_or_else(|e| panic!("{}: {e} (SKINSCOPE_BLESS=1 writes it)", path.display()))
        .to_rgb8();
    let share = common::differing_share(&kept, &shot, 40);
    assert!(
        share < 0.02,
        "{:.1}% of pixels differ (SKINSCOPE_BLESS=1 rewrites it)",
        share * 100.0
    );
    // The second picture: CesiumMan's walk on the built-in character, IK limbs, as `render`
    // draws it (held to it by `render --golden`).
    let golden = path.with_file_name("retarget-result.png");
    let drawn = out.with_file_name("result.png");
    let mut args = vec![
        "render",
        "--clips-from",
        "CesiumMan.glb",
        "--retarget-ik-limbs",
        "--clip",
        "animation 0",
        "--time",
        "0.6",
        "--size",
        "480x400",
        "--out",
        drawn.to_str().unwrap(),
    ];
    let bless = std::env::var_os("SKINSCOPE_BLESS").is_some();
    if !bless {
        args.extend(["--golden", golden.to_str().unwrap()]);
    }
    let result = Command::new(env!("CARGO_BIN_EXE_skinscope"))
        .args(&args)
        .current_dir(common::shared("CesiumMan"))
        .output()
        .unwrap();
    assert!(
        result.status.success(),
        "{}",
        String::from_utf8_lossy(&result.stderr)
    );
    if bless {
        std::fs::copy(&drawn, &golden).unwrap();
    }
    std::fs::remove_dir_all(out.parent().unwrap()).ok();
}
