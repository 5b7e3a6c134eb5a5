//! HDR environments: the GPU's prefiltered maps against sums worked on the CPU, the
//! split-sum table against Karis's fit, what rotation, intensity and the background do to a
//! frame, and the files and options refused.

use crate::common;

use std::f32::consts::PI;
use std::sync::Arc;

use glam::{Vec2, Vec3};
use skinscope::draw::headless::{CameraSpec, FrameRequest, render_frame};
use skinscope::environment::{Background, EnvironmentImage, EnvironmentView};
use skinscope::import;
use skinscope::pose::PoseRequest;
use skinscope::render::environment::{self as maps, EnvironmentMaps};
use skinscope::render::gpu::Gpu;
use skinscope::render::renderer::DrawOptions;

/// Warm light from +X, cool from -X (each over its half of the sphere), dim elsewhere.
fn split(d: Vec3) -> Vec3 {
    if d.x > 0.0 {
        Vec3::new(1.6, 0.3, 0.2)
    } else {
        Vec3::new(0.2, 0.3, 1.6)
    }
}

/// A sky brighter toward the zenith with a warm patch, smooth enough for a coarse reference.
fn smooth(d: Vec3) -> Vec3 {
    Vec3::new(
        0.5 + 0.5 * d.y,
        0.4 + 0.3 * d.x.max(0.0),
        0.3 + 0.6 * (d.z * d.z),
    )
}

/// The direction through `uv` (-1 to 1, v down) of cube face `face`, as Vulkan and WebGPU pick
/// cube faces and texels (the specification's major-axis table, inverted).
fn face_direction(face: u32, uv: Vec2) -> Vec3 {
    let (u, v) = (uv.x, uv.y);
    match face {
        0 => Vec3::new(1.0, -v, -u),
        1 => Vec3::new(-1.0, -v, u),
        2 => Vec3::new(u, 1.0, v),
        3 => Vec3::new(u, -1.0, -v),
        4 => Vec3::new(u, -v, 1.0),
        _ => Vec3::new(-u, -v, -1.0),
    }
    .normalize()
}

/// Level `level` of a half-float texture with `layers` layers, read back: [layer][texel] RGB.
fn read_back(gpu: &Gpu, texture: &wgpu::Texture, level: u32, layers: u32) -> Vec<Vec<Vec3>> {
    let side = (texture.width() >> level).max(1);
    let row = (side * 8).div_ceil(256) * 256;
    let buffer = gpu.device.create_buffer(&wgpu::BufferDescriptor {
        label: None,
        size: u64::from(row * side * layers),
        usage: wgpu::BufferUsages::COPY_DST | wgpu::BufferUsages::COPY_SRC,
        mapped_at_creation: false,
    });
    let mut encoder = gpu.device.create_command_encoder(&Default::default());
    encoder.copy_texture_to_buffer(
        wgpu::TexelCopyTextureInfo {
            texture,
            mip_level: level,
            origin: wgpu::Origin3d::ZERO,
            aspect: wgpu::TextureAspect::All,
        },
        wgpu::TexelCopyBufferInfo {
            buffer: &buffer,
            layout: wgpu::TexelCopyBufferLayout {
                offset: 0,
                bytes_per_row: Some(row),
                rows_per_image: Some(side),
            },
        },
        wgpu::Extent3d {
            width: side,
            height: side,
            depth_or_array_layers: layers,
        },
    );
    gpu.queue.submit([encoder.finish()]);
    let bytes = gpu
        .read_buffer(&buffer, u64::from(row * side * layers))
        .unwrap();
    let half = |at: usize| half::f16::from_le_bytes([bytes[at], bytes[at + 1]]).to_f32();
    (0..layers)
        .map(|layer| {
            (0..side * side)
                .map(|t| {
                    let at = (layer * row * side + (t / side) * row + (t % side) * 8) as usize;
                    Vec3::new(half(at), half(at + 2), half(at + 4))
                })
                .collect()
        })
        .collect()
}

/// The direction through texel `t` of a `side`-texel face `face`.
fn texel(face: u32, t: u32, side: u32) -> Vec3 {
    let at = |i: u32| (i as f32 + 0.5) / side as f32 * 2.0 - 1.0;
    face_direction(face, Vec2::new(at(t % side), at(t / side)))
}

#[test]
fn the_irradiance_cube_is_the_cosine_sum_worked_on_the_cpu() {
    let gpu = Gpu::headless().unwrap_or_else(|e| panic!("{e}"));
    for (name, f) in [("split", split as fn(Vec3) -> Vec3), ("smooth", smooth)] {
        let image = EnvironmentImage::from_fn(128, 64, f);
        let maps = EnvironmentMaps::prefilter(&gpu.device, &gpu.queue, &image);
        let side = maps::IRRADIANCE_SIDE;
        let faces = read_back(&gpu, &maps.irradiance, 0, 6);
        let mut worst = 0.0f32;
        for (face, texels) in faces.iter().enumerate() {
            for t in (0..side * side).step_by(37) {
                let n = texel(face as u32, t, side);
                let expected = image.irradiance(n);
                let got = texels[t as usize];
                worst = worst
                    .max(((got - expected).abs() / expected.max(Vec3::splat(0.05))).max_element());
            }
        }
        // Half floats and the 64x32 level the GPU sums against the 128x64 image summed here.
        assert!(worst < 0.02, "{name}: irradiance off by {worst}");
    }
}

/// The GGX-prefiltered radiance about `n` (N = V = R) of `image`, by brute force over its
/// texels: L(l) (n.l) D(h) dω over the hemisphere, divided by (n.l) D(h) dω (the weights
/// Karis's importance sampling converges to).
fn prefiltered(image: &EnvironmentImage, n: Vec3, roughness: f32) -> Vec3 {
    let a2 = (roughness * roughness).powi(2);
    let (mut sum, mut weight) = (Vec3::ZERO, 0.0f32);
    for y in 0..image.height {
        let theta = PI * (y as f32 + 0.5) / image.height as f32;
        let solid = theta.sin();
        for x in 0..image.width {
            let l = skinscope::environment::texel_direction(x, y, image.width, image.height);
            let n_dot_l = n.dot(l);
            if n_dot_l <= 0.0 {
                continue;
            }
            let n_dot_h = n.dot((n + l).normalize());
            let d = a2 / (PI * (n_dot_h * n_dot_h * (a2 - 1.0) + 1.0).powi(2));
            let w = n_dot_l * d * solid;
            sum += Vec3::from(image.texels[(y * image.width + x) as usize]) * w;
            weight += w;
        }
    }
    sum / weight
}

#[test]
fn each_specular_level_is_its_roughness_s_ggx_lobe() {
    let gpu = Gpu::headless().unwrap();
    let image = EnvironmentImage::from_fn(256, 128, smooth);
    let maps = EnvironmentMaps::prefilter(&gpu.device, &gpu.queue, &image);
    let last = maps::SPECULAR_LEVELS - 1;
    for level in [0, 2, last] {
        let roughness = level as f32 / last as f32;
        let side = maps::SPECULAR_SIDE >> level;
        let faces = read_back(&gpu, &maps.specular, level, 6);
        let mut worst = 0.0f32;
        for (face, texels) in faces.iter().enumerate() {
            for t in (0..side * side).step_by((side * side / 7) as usize) {
                let n = texel(face as u32, t, side);
                let expected = if level == 0 {
                    smooth(n)
                } else {
                    prefiltered(&image, n, roughness)
                };
                worst = worst.max((texels[t as usize] - expected).abs().max_element());
            }
        }
        // 256 importance samples read at filtered levels, against the brute-force integral
        // (values 0.3 to 1.0; measured on lavapipe 0.0006, 0.008 and 0.025 at levels 0, 2, 6).
        assert!(
            worst < 0.04,
            "level {level} (roughness {roughness}): off by {worst}"
        );
    }
}

/// The split-sum scale and bias at (N.V, roughness) by quadrature over the hemisphere of light
/// directions: the specular BRDF (GGX, Smith-Schlick G with k = α/2) times N.L, split by
/// Schlick's Fresnel weight into what F0 scales and what it adds.
fn split_sum(n_dot_v: f32, roughness: f32) -> Vec2 {
    let alpha = roughness * roughness;
    let (a2, k) = (alpha * alpha, alpha / 2.0);
    let v = Vec3::new((1.0 - n_dot_v * n_dot_v).sqrt(), 0.0, n_dot_v);
    let g1 = |x: f32| x / (x * (1.0 - k) + k);
    let (rows, columns) = (1024, 1024);
    let mut out = Vec2::ZERO;
    for i in 0..rows {
        let theta = 0.5 * PI * (i as f32 + 0.5) / rows as f32;
        let solid = theta.sin() * (0.5 * PI / rows as f32) * (2.0 * PI / columns as f32);
        for j in 0..columns {
            let phi = 2.0 * PI * (j as f32 + 0.5) / columns as f32;
            let l = Vec3::new(
                theta.sin() * phi.cos(),
                theta.sin() * phi.sin(),
                theta.cos(),
            );
            let h = (l + v).normalize();
            let d = a2 / (PI * (h.z * h.z * (a2 - 1.0) + 1.0).powi(2));
            let specular = d * g1(n_dot_v) * g1(l.z) / (4.0 * n_dot_v);
            let fc = (1.0 - v.dot(h).max(0.0)).powi(5);
            out += Vec2::new(1.0 - fc, fc) * specular * solid;
        }
    }
    out
}

#[test]
fn the_brdf_table_is_the_split_sum_integral() {
    let gpu = Gpu::headless().unwrap();
    let image = EnvironmentImage::from_fn(8, 4, |_| Vec3::ONE);
    let maps = EnvironmentMaps::prefilter(&gpu.device, &gpu.queue, &image);
    let side = maps::BRDF_SIDE;
    let table = &read_back(&gpu, &maps.brdf, 0, 1)[0];
    for (x, y) in [
        (12, 19),
        (32, 19),
        (57, 19),
        (12, 38),
        (32, 38),
        (57, 38),
        (12, 57),
        (57, 60),
    ] {
        let (n_dot_v, roughness) = (
            (x as f32 + 0.5) / side as f32,
            (y as f32 + 0.5) / side as f32,
        );
        let got = table[(y * side + x) as usize];
        let expected = split_sum(n_dot_v, roughness);
        assert!(
            (Vec2::new(got.x, got.y) - expected).abs().max_element() < 0.02,
            "N.V {n_dot_v}, roughness {roughness}: {got} against {expected}"
        );
    }
    // A smooth surface seen head-on reflects F0 whole: scale 1, bias 0.
    let smooth_head_on = table[(side - 1) as usize];
    assert!(
        smooth_head_on.x > 0.95 && smooth_head_on.y < 0.02,
        "{smooth_head_on}"
    );
}

/// CesiumMan at rest seen from +X (the split environment's warm side) at 160x120, lit by
/// `environment` as `view` says: its pixels, and which are the character's.
fn seen_from_x(
    gpu: &Gpu,
    environment: Option<&Arc<EnvironmentImage>>,
    view: EnvironmentView,
) -> (Vec<u8>, Vec<bool>) {
    let c = import::load(&common::shared("CesiumMan/CesiumMan.glb")).unwrap();
    let rest = PoseRequest::rest(skinscope::pose::PaletteMode::Bind);
    let mut pose = skinscope::pose::CharacterPose::new(&c);
    pose.evaluate(&c, &rest).unwrap();
    let (lo, hi) = pose.world_bounds(&c).unwrap();
    let centre = (lo + hi) / 2.0;
    let frame = |silhouette| FrameRequest {
        size: (160, 120),
        pose: rest.clone(),
        camera: CameraSpec::Explicit {
            eye: centre + Vec3::X * 1.6 * (hi - lo).length(),
            target: Some(centre),
            fov_y_degrees: 40.0,
            near: Some(0.01 * (hi - lo).length()),
            far: Some(10.0 * (hi - lo).length()),
        },
        options: DrawOptions {
            grid: false,
            silhouette,
            environment: view,
            ..Default::default()
        },
        environment: environment.cloned(),
        ..Default::default()
    };
    let pixels = render_frame(gpu, &c, &frame(false)).unwrap();
    let mask = render_frame(gpu, &c, &frame(true)).unwrap();
    (pixels, mask.chunks_exact(4).map(|p| p[0] > 127).collect())
}

/// The mean of each channel over the pixels `inside` says (or outside).
fn mean_over(pixels: &[u8], mask: &[bool], inside: bool) -> Vec3 {
    let (sum, n) = pixels
        .chunks_exact(4)
        .zip(mask)
        .filter(|(_, m)| **m == inside)
        .fold((Vec3::ZERO, 0.0), |(s, n), (p, _)| {
            (
                s + Vec3::new(p[0] as f32, p[1] as f32, p[2] as f32),
                n + 1.0,
            )
        });
    sum / n
}

#[test]
fn rotation_and_intensity_turn_and_scale_the_light() {
    let gpu = Gpu::headless().unwrap();
    let split = Some(Arc::new(EnvironmentImage::from_fn(256, 128, split)));
    let view = |rotation_degrees, intensity| EnvironmentView {
        rotation_degrees,
        intensity,
        ..Default::default()
    };
    let (warm, mask) = seen_from_x(&gpu, split.as_ref(), view(0.0, 1.0));
    let (turned, _) = seen_from_x(&gpu, split.as_ref(), view(180.0, 1.0));
    let (dim, _) = seen_from_x(&gpu, split.as_ref(), view(0.0, 0.25));
    let (sky, _) = seen_from_x(&gpu, None, view(0.0, 1.0));
    let (warm, turned, dim, sky) = (
        mean_over(&warm, &mask, true),
        mean_over(&turned, &mask, true),
        mean_over(&dim, &mask, true),
        mean_over(&sky, &mask, true),
    );
    assert!(mask.iter().filter(|m| **m).count() > 500);
    // Facing +X, the character takes the warm half's light; turned half a turn, the cool half's.
    assert!(warm.x > warm.z + 20.0, "unturned {warm}");
    assert!(turned.z > turned.x + 20.0, "turned {turned}");
    // A quarter of the light is darker everywhere; the generated sky is neither warm nor cool.
    assert!(dim.x < warm.x - 20.0, "{dim} against {warm}");
    assert!(
        (sky.x - sky.z).abs() < (warm.x - warm.z).abs() / 2.0,
        "sky {sky}"
    );
}

#[test]
fn the_background_shows_the_environment_sharp_blurred_or_flat() {
    let gpu = Gpu::headless().unwrap();
    let split = Some(Arc::new(EnvironmentImage::from_fn(256, 128, split)));
    let view = |background, rotation_degrees| EnvironmentView {
        background,
        rotation_degrees,
        ..Default::default()
    };
    let (flat, mask) = seen_from_x(&gpu, split.as_ref(), view(Background::Flat, 0.0));
    let (sharp, _) = seen_from_x(&gpu, split.as_ref(), view(Background::Environment, 0.0));
    let (blurred, _) = seen_from_x(&gpu, split.as_ref(), view(Background::Blurred, 0.0));
    // Flat: the default background colour (linear 0.16, 0.17, 0.2; sRGB about 111, 114, 124)
    // everywhere behind.
    let behind = mean_over(&flat, &mask, false);
    assert!(
        (behind - Vec3::new(111.0, 114.0, 124.0))
            .abs()
            .max_element()
            < 4.0,
        "{behind}"
    );
    // Looking toward -X from +X the camera sees the cool half: blue behind.
    let behind = mean_over(&sharp, &mask, false);
    assert!(behind.z > behind.x + 40.0, "{behind}");
    let blurred_behind = mean_over(&blurred, &mask, false);
    assert!(
        blurred_behind.z > blurred_behind.x + 20.0,
        "{blurred_behind}"
    );
    // Turned a quarter, the edge between the halves runs down the middle of the view: sharp,
    // the columns either side of it are the two halves' colours; blurred, they are closer.
    let (edge, _) = seen_from_x(&gpu, split.as_ref(), view(Background::Environment, 90.0));
    let (soft, _) = seen_from_x(&gpu, split.as_ref(), view(Background::Blurred, 90.0));
    let step_across = |p: &[u8]| {
        // Red minus blue, three columns left and right of the middle, on the top row.
        let red_blue = |x: usize| p[4 * x] as f32 - p[4 * x + 2] as f32;
        (red_blue(77) - red_blue(83)).abs()
    };
    assert!(step_across(&edge) > 100.0, "sharp: {}", step_across(&edge));
    assert!(
        step_across(&soft) < step_across(&edge) / 2.0,
        "blurred {} against sharp {}",
        step_across(&soft),
        step_across(&edge)
    );
    // The character is drawn over it alike in all three (but for the edge pixels the
    // background shows through).
    let character = |p: &[u8]| mean_over(p, &mask, true);
    for other in [&sharp, &blurred] {
        let difference = (character(&flat) - character(other)).abs().max_element();
        assert!(difference < 2.0, "{difference}");
    }
}

#[test]
fn an_exr_and_an_hdr_of_one_sky_load_alike() {
    let dir = common::temp_dir("environment-files");
    let sky = EnvironmentImage::from_fn(64, 32, smooth);
    let pixels: Vec<f32> = sky.texels.iter().flatten().copied().collect();
    let buffer = image::Rgb32FImage::from_raw(64, 32, pixels).unwrap();
    let (exr, hdr) = (dir.join("sky.exr"), dir.join("sky.hdr"));
    image::DynamicImage::ImageRgb32F(buffer.clone())
        .save(&exr)
        .unwrap();
    image::DynamicImage::ImageRgb32F(buffer).save(&hdr).unwrap();
    let (a, b) = (
        EnvironmentImage::load(&exr).unwrap(),
        EnvironmentImage::load(&hdr).unwrap(),
    );
    assert_eq!((a.width, a.height, b.width, b.height), (64, 32, 64, 32));
    for ((x, y), z) in a.texels.iter().zip(&b.texels).zip(&sky.texels) {
        for c in 0..3 {
            // EXR keeps the floats; Radiance's RGBE keeps 8 bits of mantissa.
            // (its channels share one exponent: a step of 1/128 of the largest).
            let step = z.iter().copied().fold(0.0, f32::max) / 64.0;
            assert!((x[c] - z[c]).abs() < 1e-6, "{x:?} {z:?}");
            assert!((y[c] - z[c]).abs() < step, "{y:?} {z:?}");
        }
    }
    // Wider than 2048 texels: halved at load.
    let wide = image::Rgb32FImage::from_pixel(4100, 2, image::Rgb([1.0, 2.0, 3.0]));
    let path = dir.join("wide.exr");
    image::DynamicImage::ImageRgb32F(wide).save(&path).unwrap();
    let wide = EnvironmentImage::load(&path).unwrap();
    assert_eq!((wide.width, wide.height), (1025, 1));
    assert_eq!(wide.texels[0], [1.0, 2.0, 3.0]);
}

/// A Radiance `.hdr` of `width` x `height` texels, one grey, run-length encoded as the format's
/// new-style scanlines (runs of 127): about 1 KB a 16,384-texel row.
fn run_length_hdr(width: u32, height: u32) -> Vec<u8> {
    let mut bytes =
        format!("#?RADIANCE\nFORMAT=32-bit_rle_rgbe\n\n-Y {height} +X {width}\n").into_bytes();
    let mut row = vec![2, 2, (width >> 8) as u8, width as u8];
    for value in [128u8, 128, 128, 129] {
        let mut left = width;
        while left > 0 {
            let run = left.min(127);
            row.extend([128 + run as u8, value]);
            left -= run;
        }
    }
    for _ in 0..height {
        bytes.extend_from_slice(&row);
    }
    bytes
}

#[test]
fn environments_are_bounded_by_their_texels_and_read_only_from_regular_files() {
    let dir = common::temp_dir("environment-bounds");
    // 11 MB on disk that would decode to 2 GiB: refused by its header, at once.
    let huge = dir.join("huge.hdr");
    std::fs::write(&huge, run_length_hdr(16_384, 10_900)).unwrap();
    let started = std::time::Instant::now();
    let e = EnvironmentImage::load(&huge).unwrap_err().to_string();
    assert!(
        e.contains("16384x10900 texels, more than the 67108864 (16384x4096)"),
        "{e}"
    );
    assert!(started.elapsed() < std::time::Duration::from_secs(5));
    // One within the bounds, wider than kept: halved while read, to the width kept.
    let wide = dir.join("wide.hdr");
    std::fs::write(&wide, run_length_hdr(4_100, 3)).unwrap();
    let image = EnvironmentImage::load(&wide).unwrap();
    assert_eq!((image.width, image.height), (2_050 / 2, 1));
    let grey = 128.0 * 2f32.powi(129 - 136);
    for t in &image.texels {
        assert!(t.iter().all(|c| (c - grey).abs() < 1e-6), "{t:?}");
    }
    // A FIFO would block the read for ever: refused by its kind, before it is opened.
    let fifo = dir.join("sky.hdr");
    let made = std::process::Command::new("mkfifo")
        .arg(&fifo)
        .status()
        .unwrap();
    assert!(made.success());
    let (code, _, err) = common::skinscope(&[
        "render",
        "--out",
        dir.join("out.png").to_str().unwrap(),
        "--environment",
        fifo.to_str().unwrap(),
    ]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("is not a regular file"), "{err}");
}

#[test]
fn bad_environments_and_options_are_refused_naming_the_file() {
    let dir = common::temp_dir("environment-bad");
    let missing = dir.join("missing.hdr");
    let png = dir.join("sky.png");
    std::fs::write(&png, b"not read").unwrap();
    let cut = dir.join("cut.hdr");
    std::fs::write(
        &cut,
        b"#?RADIANCE\nFORMAT=32-bit_rle_rgbe\n\n-Y 64 +X 128\n\x02\x02",
    )
    .unwrap();
    let model = common::shared("CesiumMan/CesiumMan.glb");
    let out = dir.join("out.png");
    let (model, out) = (model.to_str().unwrap(), out.to_str().unwrap());
    for (path, message) in [
        (&missing, "cannot open the environment"),
        (
            &png,
            "an environment is a Radiance .hdr or OpenEXR .exr image",
        ),
        (&cut, "cannot decode the environment"),
    ] {
        let p = path.to_str().unwrap();
        let (code, _, err) =
            common::skinscope(&["render", model, "--out", out, "--environment", p]);
        assert_eq!(code, 2, "{err}");
        assert!(err.contains(p) && err.contains(message), "{err}");
        assert!(!std::path::Path::new(out).exists());
    }
    for (option, value) in [
        ("--environment-intensity", "-1"),
        ("--environment-rotation", "nan"),
        ("--background-shows", "sky"),
    ] {
        let (code, _, err) = common::skinscope(&["render", model, "--out", out, option, value]);
        assert_eq!(code, 2, "{option} {value}: {err}");
        assert!(err.contains(option), "{err}");
    }
}

#[test]
fn the_shadowed_ground_takes_the_environment_s_light() {
    // The ground's ambient is worked per vertex from the irradiance cube: under a sky that is
    // blue above, the ground away from the character is bluer than under the generated sky.
    let gpu = Gpu::headless().unwrap();
    let c = import::load(&common::shared("Fox/Fox.glb")).unwrap();
    let blue = Arc::new(EnvironmentImage::from_fn(64, 32, |d| {
        Vec3::new(0.1, 0.1, 0.4 + 1.2 * d.y.max(0.0))
    }));
    let frame = |environment: Option<Arc<EnvironmentImage>>| {
        let request = FrameRequest {
            size: (160, 120),
            options: DrawOptions {
                shadows: true,
                ..Default::default()
            },
            environment,
            ..Default::default()
        };
        render_frame(&gpu, &c, &request).unwrap()
    };
    let (sky, lit) = (frame(None), frame(Some(blue)));
    // The bottom rows: ground in front of the Fox.
    let blueness = |p: &[u8]| {
        let rows = &p[4 * 160 * 110..];
        rows.chunks_exact(4)
            .map(|q| q[2] as f32 - q[0] as f32)
            .sum::<f32>()
            / (rows.len() / 4) as f32
    };
    assert!(
        blueness(&lit) > blueness(&sky) + 10.0,
        "{} against {}",
        blueness(&lit),
        blueness(&sky)
    );
}
