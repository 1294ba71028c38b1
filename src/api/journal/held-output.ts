/**
 * Output held back until the journal write that covers it is synced (the durability gate's
 * queue): each entry is the number of the write it waits for and what releases it. Writes are
 * numbered in order and their syncs complete in order, so the entries' numbers never decrease
 * and a release walks from the head: output leaves in the order it was produced.
 */
export class HeldOutput {
  private upTos: number[] = [];
  private releases: (() => void)[] = [];
  private head = 0;

  /** Holds `release` until write `upTo` is synced. */
  add(upTo: number, release: () => void): void {
    this.upTos.push(upTo);
    this.releases.push(release);
  }

  /** Releases, in order, everything held for writes up to `synced`. */
  releaseUpTo(synced: number): void {
    const upTos = this.upTos;
    let i = this.head;
    while (i < upTos.length && upTos[i]! <= synced) {
      const release = this.releases[i]!;
      this.head = ++i;
      release();
    }
    if (this.head === upTos.length || this.head > 4096) {
      // under steady load the queue never empties: drop the released prefix now and then
      upTos.splice(0, this.head);
      this.releases.splice(0, this.head);
      this.head = 0;
    }
  }

  /** Forgets everything held without releasing it (the journal failed: nothing may leave). */
  drop(): void {
    this.upTos = [];
    this.releases = [];
    this.head = 0;
  }
}
