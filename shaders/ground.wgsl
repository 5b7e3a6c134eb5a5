// The solid ground (drawn with shadows on, in place of the grid's lines): a grey Lambertian
// square at the scene's ground height (camera.ground), lit by the key light through the
// characters' shadow and by the sky darkened where they touch it, fading out at its edge into
// the background. Composed after camera.wgsl, light.wgsl and shadow.wgsl.

struct GroundOut {
    @builtin(position) clip: vec4<f32>,
    @location(0) world: vec3<f32>,
    // The key light's share and the sky's, the same over the whole flat ground: worked once a
    // vertex rather than once a fragment.
    @location(1) @interpolate(flat) direct: vec3<f32>,
    @location(2) @interpolate(flat) ambient: vec3<f32>,
    // Where the point falls in the shadow maps (`shadow_coords`; both views are orthographic, so
    // the coordinates interpolate exactly): layer 0 offset along the ground's normal, layer 1.
    @location(3) key: vec3<f32>,
    @location(4) below: vec3<f32>,
}

// Linear albedo of the ground.
const GROUND_ALBEDO: vec3<f32> = vec3<f32>(0.45, 0.45, 0.47);

// Two triangles over the ground's square (camera.ground: centre x, height, centre z, half side).
@vertex
fn vs_ground(@builtin(vertex_index) i: u32) -> GroundOut {
    var corners = array<vec2<f32>, 6>(
        vec2<f32>(-1.0, -1.0),
        vec2<f32>(1.0, 1.0),
        vec2<f32>(1.0, -1.0),
        vec2<f32>(-1.0, -1.0),
        vec2<f32>(-1.0, 1.0),
        vec2<f32>(1.0, 1.0),
    );
    let c = corners[i % 6u] * camera.ground.w;
    var out: GroundOut;
    out.world = vec3<f32>(camera.ground.x + c.x, camera.ground.y, camera.ground.z + c.y);
    out.clip = camera.clip_from_world * vec4<f32>(out.world, 1.0);
    let n = vec3<f32>(0.0, 1.0, 0.0);
    out.direct = GROUND_ALBEDO / PI * camera.light_dir.w * max(dot(n, -camera.light_dir.xyz), 0.0);
    out.ambient = GROUND_ALBEDO * environment_diffuse(n);
    out.key = shadow_coords(0u, out.world + n * camera.shadow.y);
    out.below = shadow_coords(1u, out.world);
    return out;
}

@fragment
fn fs_ground(in: GroundOut) -> @location(0) vec4<f32> {
    let direct = in.direct * key_light_visibility_at(in.key);
    let ambient = in.ambient * (1.0 - 0.8 * contact_occlusion(in.world.y, in.below));
    let from_centre = length(in.world.xz - camera.ground.xz) / max(camera.ground.w, 1e-6);
    let fade = 1.0 - smoothstep(0.6, 1.0, from_centre);
    return vec4<f32>(tone_map(direct + ambient), fade);
}
