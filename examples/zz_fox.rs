use std::path::Path;
fn main() {
    for rel in ["Fox/Fox.glb", "CesiumMan/CesiumMan.glb"] {
        let path = Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("../shared/gltf")
            .join(rel);
        let c = skinscope::import::load(&path).unwrap();
        for d in &c.clips {
            let mut worst = 0.0f32;
            let mut n = 0;
            for jt in d.clip.tracks() {
                use skinscope::anim::Channel;
                let e = match &jt.channel {
                    Channel::Rotation(t) => {
                        let v = t.values();
                        v[0].angle_between(*v.last().unwrap())
                    }
                    Channel::Translation(t) | Channel::Scale(t) => {
                        let v = t.values();
                        v[0].distance(*v.last().unwrap())
                    }
                };
                worst = worst.max(e);
                n += 1;
            }
            println!(
                "{rel} {} tracks {n} first-vs-last worst {worst}",
                d.clip.name()
            );
        }
    }
}
