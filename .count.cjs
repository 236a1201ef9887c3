const fs=require("fs"); const src=fs.readFileSync(__dirname+"/dist/node/core.js","utf8").split("\n");
const mod=[]; let cur="?"; for (let i=0;i<src.length;i++){ const m=/^\/\/ ((src|node_modules)\/\S+)/.exec(src[i]); if(m) cur=m[1]; mod[i]=cur; }
const per=new Map(); let n=0;
Error.stackTraceLimit=50;
globalThis.__zc=(st)=>{ n++; // first frame in core-count.cjs that's in src/ module (not node_modules/zod)
 const lines=[...st.matchAll(/core-count\.cjs:(\d+):/g)].map(m=>Number(m[1]));
 let k="?"; for (const l of lines){ const m=mod[l]; if(m && m.startsWith("src/")){k=m;break;} } per.set(k,(per.get(k)??0)+1); };
const t=performance.now(); require("./dist/node/core-count.cjs"); 
console.log("schemas", n);
for (const [k,v] of [...per].sort((a,b)=>b[1]-a[1]).slice(0,45)) console.log(String(v).padStart(6), k);
