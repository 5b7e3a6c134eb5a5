// Skinned meshes: shaded, wireframe, silhouette and shadow casters. Composed after camera.wgsl,
// draw.wgsl, morph.wgsl, skinning.wgsl, light.wgsl and shadow.wgsl. Two vertex entry points
// share everything after skinning: `vs_main` morphs and skins the vertex itself, `vs_skinned`
// reads what the skin pass (skin_pass.wgsl) wrote this frame.

// The skin pass's output, read by `vs_skinned` (a one-element placeholder under `vs_main`).
// data: begin skinned_vertices
@group(1) @binding(1) var<storage, read> skinned_vertices: array<SkinnedVertex>;

fn skinned_vertex(i: u32) -> SkinnedVertex {
    return skinned_vertices[i];
}
// data: end


// A material (group 2): metallic-roughness PBR as glTF defines it.
struct MaterialFactors {
    // Linear RGB, emissive strength included.
    emissive: vec4<f32>,
    // metallic, roughness, normal scale, occlusion strength.
    factors: vec4<f32>,
    // TEXCOORD set of the base colour, metallic-roughness, normal and occlusion textures.
    tex_coords: vec4<u32>,
    // x: emissive's TEXCOORD set; y: 1 with a normal map; z: 1 when unlit.
    flags: vec4<u32>,
    // KHR_texture_transform of the base colour (0), metallic-roughness (1), normal (2),
    // occlusion (3) and emissive (4) textures: rows 2k and 2k + 1 of a 2x3 matrix.
    transforms: array<vec4<f32>, 10>,
}

@group(2) @binding(0) var base_color_texture: texture_2d<f32>;
@group(2) @binding(1) var base_color_sampler: sampler;
@group(2) @binding(2) var<uniform> material: MaterialFactors;
@group(2) @binding(3) var metallic_roughness_texture: texture_2d<f32>;
@group(2) @binding(4) var normal_texture: texture_2d<f32>;
@group(2) @binding(5) var occlusion_texture: texture_2d<f32>;
@group(2) @binding(6) var emissive_texture: texture_2d<f32>;
// Each texture's own sampler, as the file's samplers say (wrapping, filters, mip levels).
@group(2) @binding(7) var metallic_roughness_sampler: sampler;
@group(2) @binding(8) var normal_sampler: sampler;
@group(2) @binding(9) var occlusion_sampler: sampler;
@group(2) @binding(10) var emissive_sampler: sampler;

struct VertexIn {
    @location(0) position: vec3<f32>,
    @location(1) normal: vec3<f32>,
    @location(2) uv: vec2<f32>,
    @location(3) joints: vec4<u32>,
    @location(4) weights: vec4<f32>,
    // Debug colour (weights, displacement, ...), used when camera.mode.x is 1.
    @location(5) debug_color: vec4<f32>,
    @location(6) uv1: vec2<f32>,
    // COLOR_0, linear.
    @location(7) color: vec4<f32>,
    // Tangent xyz and handedness w; zero without tangents.
    @location(8) tangent: vec4<f32>,
    // Influences five to eight (zero weights without JOINTS_1 / WEIGHTS_1).
    @location(9) joints1: vec4<u32>,
    @location(10) weights1: vec4<f32>,
}

struct VertexOut {
    @builtin(position) clip: vec4<f32>,
    @location(0) normal: vec3<f32>,
    @location(1) uv: vec2<f32>,
    @location(2) @interpolate(flat) draw: u32,
    @location(3) debug_color: vec4<f32>,
    @location(4) uv1: vec2<f32>,
    @location(5) color: vec4<f32>,
    @location(6) tangent: vec4<f32>,
    @location(7) world: vec3<f32>,
}

// The draw index arrives as the instance index (each draw is issued as instance i..i+1).
@vertex
fn vs_main(
    v: VertexIn,
    @builtin(instance_index) draw_index: u32,
    @builtin(vertex_index) vertex: u32,
) -> VertexOut {
    let d = draw_at(draw_index);
    let m = morph_vertex(d.morph_first, d.morph_count, d.morph_vertices, vertex, v.position, v.normal);
    let influences = Influences(v.joints, v.weights, v.joints1, v.weights1);
    let skinned = skin_vertex(camera.mode.z, d.palette_base, m.position, m.normal, influences);
    // Tangents are morphed (when the targets move them), then follow the same skinning matrix
    // (a direction: w = 0).
    var bind_tangent = v.tangent.xyz;
    if d.morph_tangents == 1u {
        bind_tangent = morph_tangent(d.morph_first, d.morph_count, d.morph_vertices, vertex, bind_tangent);
    }
    let tangent = skin_direction(camera.mode.z, d.palette_base, bind_tangent, influences);
    return vertex_out(v, draw_index, skinned.position, skinned.normal, tangent);
}

// The same vertex as the skin pass left it (mesh space).
@vertex
fn vs_skinned(
    v: VertexIn,
    @builtin(instance_index) draw_index: u32,
    @builtin(vertex_index) vertex: u32,
) -> VertexOut {
    let s = skinned_vertex(draw_at(draw_index).out_base + vertex);
    return vertex_out(v, draw_index, s.position.xyz, s.normal.xyz, s.tangent.xyz);
}

// A skinned vertex (mesh space) to the world and the clip: what both entry points share.
fn vertex_out(
    v: VertexIn,
    draw_index: u32,
    position: vec3<f32>,
    normal: vec3<f32>,
    tangent: vec3<f32>,
) -> VertexOut {
    let d = draw_at(draw_index);
    let world = d.world_from_mesh * vec4<f32>(position, 1.0);
    var out: VertexOut;
    out.clip = camera.clip_from_world * world;
    out.normal = (d.world_from_mesh * vec4<f32>(normal, 0.0)).xyz;
    out.uv = v.uv;
    out.draw = draw_index;
    out.debug_color = v.debug_color;
    out.uv1 = v.uv1;
    out.color = v.color;
    out.tangent = vec4<f32>((d.world_from_mesh * vec4<f32>(tangent, 0.0)).xyz, v.tangent.w);
    out.world = world.xyz;
    return out;
}

// Texture `k`'s coordinates: its TEXCOORD set, transformed as KHR_texture_transform says.
fn uv_of(coord_set: u32, k: u32, in: VertexOut) -> vec2<f32> {
    let uv = vec3<f32>(select(in.uv, in.uv1, coord_set == 1u), 1.0);
    return vec2<f32>(dot(material.transforms[2u * k].xyz, uv), dot(material.transforms[2u * k + 1u].xyz, uv));
}

// Metallic-roughness PBR (glTF's BRDF: Lambert diffuse, GGX with height-correlated Smith
// visibility, Schlick's Fresnel) lit by the environment (light.wgsl) and a key light (through the characters'
// shadow when shadows are drawn); debug colours are
// drawn with a plain diffuse light instead.
@fragment
fn fs_shaded(in: VertexOut, @builtin(front_facing) front: bool) -> @location(0) vec4<f32> {
    let d = draw_at(in.draw);
    // The drawn triangle's normal, toward the eye (the winding's, flipped on a back face as
    // double-sided lighting flips it): taken before any discard, in uniform control flow.
    let face = cross(dpdx(in.world), dpdy(in.world));
    let base = textureSample(base_color_texture, base_color_sampler, uv_of(material.tex_coords.x, 0u, in))
        * d.base_color * in.color;
    if base.a < d.alpha_cutoff {
        discard;
    }
    let alpha = select(1.0, base.a, d.alpha_blend == 1u);
    let len = length(in.normal);
    var n = select(vec3<f32>(0.0, 1.0, 0.0), in.normal / len, len > 0.0);
    n = select(-n, n, front);
    if d.face_normals == 1u && length(face) > 0.0 {
        let f = normalize(face);
        n = select(-f, f, dot(f, camera.eye.xyz - in.world) >= 0.0);
    }
    if camera.mode.x == 1u {
        let diffuse = max(dot(n, -camera.light_dir.xyz), 0.0);
        return vec4<f32>(in.debug_color.rgb * (0.3 + 0.7 * diffuse), 1.0);
    }
    if material.flags.z == 1u {
        return vec4<f32>(tone_map(base.rgb), alpha);
    }
    // Sampled before the branch on the tangent, a value of each fragment's own: WGSL lets
    // implicit-derivative samples run only in uniform control flow (browsers check it).
    let normal_sample = textureSample(normal_texture, normal_sampler, uv_of(material.tex_coords.z, 2u, in));
    if material.flags.y == 1u && length(in.tangent.xyz) > 0.0 {
        let t = normalize(in.tangent.xyz - n * dot(n, in.tangent.xyz));
        let b = cross(n, t) * select(1.0, -1.0, in.tangent.w < 0.0);
        var tn = normal_sample.xyz * 2.0 - 1.0;
        tn = vec3<f32>(tn.xy * material.factors.z, tn.z);
        n = normalize(mat3x3<f32>(t, b, n) * tn);
    }
    let mr = textureSample(metallic_roughness_texture, metallic_roughness_sampler, uv_of(material.tex_coords.y, 1u, in));
    let metallic = clamp(material.factors.x * mr.b, 0.0, 1.0);
    let roughness = clamp(material.factors.y * mr.g, 0.04, 1.0);
    let occlusion = textureSample(occlusion_texture, occlusion_sampler, uv_of(material.tex_coords.w, 3u, in)).r;
    let ao = 1.0 + material.factors.w * (occlusion - 1.0);
    let emissive = material.emissive.rgb
        * textureSample(emissive_texture, emissive_sampler, uv_of(material.flags.x, 4u, in)).rgb;

    let v = normalize(camera.eye.xyz - in.world);
    let n_dot_v = clamp(dot(n, v), 1e-4, 1.0);
    let f0 = mix(vec3<f32>(0.04), base.rgb, metallic);
    let c_diff = base.rgb * (1.0 - metallic);
    let a = roughness * roughness;
    let a2 = a * a;

    // The key light.
    let l = -camera.light_dir.xyz;
    let h = normalize(l + v);
    let n_dot_l = clamp(dot(n, l), 0.0, 1.0);
    let n_dot_h = clamp(dot(n, h), 0.0, 1.0);
    let v_dot_h = clamp(dot(v, h), 0.0, 1.0);
    let fresnel = f0 + (1.0 - f0) * pow(1.0 - v_dot_h, 5.0);
    let dd = n_dot_h * n_dot_h * (a2 - 1.0) + 1.0;
    let distribution = a2 / (PI * dd * dd);
    let visibility = 0.5 / (n_dot_l * sqrt(n_dot_v * n_dot_v * (1.0 - a2) + a2)
        + n_dot_v * sqrt(n_dot_l * n_dot_l * (1.0 - a2) + a2) + 1e-5);
    // The shadow map is read offset along the surface's own normal (before normal mapping).
    let surface = select(-in.normal, in.normal, front);
    let shadow = key_light_visibility(in.world, select(n, normalize(surface), length(surface) > 0.0));
    let direct = ((1.0 - fresnel) * c_diff / PI + fresnel * distribution * visibility)
        * camera.light_dir.w * n_dot_l * shadow;

    // The environment: diffuse irradiance, and the specular reflection blurred by roughness.
    let r = reflect(-v, n);
    let specular_light = environment_specular(r, roughness);
    let brdf = environment_brdf(roughness, n_dot_v);
    let ambient = (c_diff * environment_diffuse(n) + specular_light * (f0 * brdf.x + brdf.y)) * ao;

    return vec4<f32>(tone_map(direct + ambient + emissive), alpha);
}

// An onion-skin ghost: its tint (the draw's base colour, alpha included) lit by one fixed
// light, double-sided; far cheaper than the shaded look, for the many ghosts of a frame.
@fragment
fn fs_ghost(in: VertexOut, @builtin(front_facing) front: bool) -> @location(0) vec4<f32> {
    let d = draw_at(in.draw);
    let n = normalize(select(-in.normal, in.normal, front));
    let light = 0.45 + 0.55 * max(dot(n, normalize(vec3<f32>(0.4, 0.8, 0.5))), 0.0);
    return vec4<f32>(d.base_color.rgb * light, d.base_color.a);
}

@fragment
fn fs_wireframe(in: VertexOut) -> @location(0) vec4<f32> {
    return vec4<f32>(0.05, 0.05, 0.08, 1.0);
}

// The shadow maps' pass: depth alone, cut-outs (MASK) discarded as the shaded pass discards them.
@fragment
fn fs_shadow(in: VertexOut) {
    let d = draw_at(in.draw);
    let alpha = (textureSample(base_color_texture, base_color_sampler, uv_of(material.tex_coords.x, 0u, in))
        * d.base_color * in.color).a;
    if alpha < d.alpha_cutoff {
        discard;
    }
}

@fragment
fn fs_silhouette(in: VertexOut) -> @location(0) vec4<f32> {
    // Cut-outs (MASK) are holes in the silhouette too.
    let d = draw_at(in.draw);
    let alpha = (textureSample(base_color_texture, base_color_sampler, uv_of(material.tex_coords.x, 0u, in))
        * d.base_color * in.color).a;
    if alpha < d.alpha_cutoff {
        discard;
    }
    return vec4<f32>(1.0, 1.0, 1.0, 1.0);
}
