import { PicturePool } from '../main/media/picture-pool.js';
import { writeFileSync } from 'node:fs';
const pool = new PicturePool();
for (const [f, fmt] of [['/tmp/mx/a.png','png'],['/tmp/mx/a.jpg','jpg'],['/tmp/mx/a.psd','psd'],['/tmp/mx/a.pdf','pdf'],['/tmp/mx/a.heic','heic'],['/tmp/mx/out.txt','png']] as const) {
  const t = performance.now();
  const o = await pool.submit({ op: 'render', file: f, format: fmt, edge: 256, page: 1 }, 'visible').result;
  console.log(fmt, o.ok ? [o.width, o.height, o.picture?.length, o.meta] : o, Math.round(performance.now() - t));
  if (o.ok && o.picture) writeFileSync(`/tmp/mx/t-${fmt}.webp`, o.picture);
}
await pool.close();
