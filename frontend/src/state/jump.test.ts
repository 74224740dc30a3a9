import { describe, expect, it } from "vitest";
import type { FileChange } from "../api/types";
import { calcDiff } from "./fakeBackend";
import { changeRef, firstChangedLine, frameRef, hunkLine, sectionRef, sideOnDisk } from "./jump";

describe("jump to the code: where a link opens", () => {
  it("opens a hunk at its first changed line on the side on disk", () => {
    const hunk = "@@ -10,7 +12,8 @@ def f():\n ctx a\n ctx b\n-old\n+new\n+more\n ctx c\n";
    expect(hunkLine(hunk, "old")).toBe(12);
    expect(hunkLine(hunk, "new")).toBe(14);
    expect(hunkLine("@@ -0,0 +1,3 @@\n+a\n+b\n+c\n", "old")).toBe(1); // an empty side starts at 0
    expect(hunkLine("@@ -5 +5 @@\n-x\n+y\n", "new")).toBe(5);
    expect(hunkLine("not a hunk", "old")).toBe(1);
    expect(firstChangedLine(calcDiff, "old")).toBe(2);
    expect(firstChangedLine("--- a/x\n+++ b/x\n@@ -3,4 +3,4 @@\n a\n b\n-c\n+C\n d\n@@ -40,1 +40,1 @@\n-z\n+Z\n", "old")).toBe(5);
    expect(firstChangedLine("Binary files differ\n", "new")).toBe(1);
  });

  it("opens a change's file only where it is on disk", () => {
    const at = (op: FileChange["op"], state: "draft" | "applied" | "undone") =>
      changeRef({ path: "a.py", op, diff: "@@ -1,2 +1,2 @@\n x\n-y\n+Y\n", base_sha256: "" }, state);
    expect(sideOnDisk("draft")).toBe("old");
    expect(sideOnDisk("undone")).toBe("old");
    expect(sideOnDisk("applied")).toBe("new");
    expect(at("update", "draft")).toEqual({ path: "a.py", line: 2 });
    expect(at("update", "applied")).toEqual({ path: "a.py", line: 2 });
    expect(at("create", "draft")).toBeNull(); // not written yet
    expect(at("create", "undone")).toBeNull();
    expect(at("create", "applied")).toEqual({ path: "a.py", line: 2 });
    expect(at("delete", "draft")).toEqual({ path: "a.py", line: 2 });
    expect(at("delete", "applied")).toBeNull(); // gone
    expect(at("mkdir", "applied")).toBeNull();
    expect(at("rmdir", "draft")).toBeNull();
  });

  it("reads the frames of the Stack frames section and the file sections' titles", () => {
    expect(frameRef("calc.py:2 → calc.py")).toEqual({ path: "calc.py", line: 2 });
    expect(frameRef("/home/ci/app/src/x.ts:30:7 → src/x.ts")).toEqual({ path: "src/x.ts", line: 30 });
    expect(frameRef("C:\\proj\\a b.py:4 → a b.py")).toEqual({ path: "a b.py", line: 4 });
    expect(frameRef("/usr/lib/python3/json.py:12 (library)")).toBeNull();
    expect(frameRef("gone.py:3 (not found in the project)")).toBeNull();
    expect(frameRef("…[2 more frames]")).toBeNull();
    expect(sectionRef("File calc.py lines 1-12 of 40 (around the stack frames)")).toEqual({ path: "calc.py", line: 1 });
    expect(sectionRef("File src/app.go lines 30-44, 80-90 of 200 (definition of Run, used at line 12)")).toEqual({ path: "src/app.go", line: 30 });
    expect(sectionRef("Stack frames")).toBeNull();
    expect(sectionRef("Environment")).toBeNull();
  });
});
