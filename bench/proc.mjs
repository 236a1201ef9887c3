// Process-tree figures from /proc (Linux): RSS and CPU time of a process and all its descendants.
import { readdirSync, readFileSync } from "node:fs";

const TICK_MS = 10; // USER_HZ is 100 on Linux

function stat(pid) {
  try {
    const text = readFileSync(`/proc/${pid}/stat`, "utf8");
    const fields = text.slice(text.lastIndexOf(")") + 2).split(" ");
    return { ppid: Number(fields[1]), cpuTicks: Number(fields[11]) + Number(fields[12]), userTicks: Number(fields[11]), rssPages: Number(fields[21]) };
  } catch {
    return undefined;
  }
}

/** The pid and every descendant. */
export function tree(root) {
  const children = new Map();
  for (const name of readdirSync("/proc")) {
    if (!/^\d+$/.test(name)) continue;
    const s = stat(Number(name));
    if (!s) continue;
    if (!children.has(s.ppid)) children.set(s.ppid, []);
    children.get(s.ppid).push(Number(name));
  }
  const out = [];
  const walk = (pid) => {
    out.push(pid);
    for (const c of children.get(pid) ?? []) walk(c);
  };
  walk(root);
  return out;
}

/** RSS in MB and CPU in ms, summed over the tree; the CPU also as user and system time apart (the kernel's share). */
export function usage(root) {
  let rssPages = 0;
  let cpuTicks = 0;
  let userTicks = 0;
  for (const pid of tree(root)) {
    const s = stat(pid);
    if (!s) continue;
    rssPages += s.rssPages;
    cpuTicks += s.cpuTicks;
    userTicks += s.userTicks;
  }
  return { rssMB: (rssPages * 4096) / 1e6, cpuMs: cpuTicks * TICK_MS, userMs: userTicks * TICK_MS, sysMs: (cpuTicks - userTicks) * TICK_MS };
}

/** CPU in ms of the given processes (user + system; a process gone counts 0), without their descendants. */
export function cpuMsOf(pids) {
  let ticks = 0;
  for (const pid of pids) ticks += stat(pid)?.cpuTicks ?? 0;
  return ticks * TICK_MS;
}
