// This computer, with a launch's uploads held until the test releases them: a slow link, stopped
// at a known step (the first upload of the run directory: the demo engine).
import { LocalTarget } from '../../electron/node/transport/local-target';

export class HeldTarget extends LocalTarget {
  /** The paths written, in order, once the gate let them through. */
  readonly written: string[] = [];
  private opened!: () => void;
  private readonly gate = new Promise<void>((resolve) => (this.opened = resolve));
  private arrived!: () => void;
  /** Resolves when the launch's first upload is waiting at the gate. */
  readonly uploading = new Promise<void>((resolve) => (this.arrived = resolve));
  release() {
    this.opened();
  }
  override async writeFile(path: string, data: string | Buffer, mode?: number): Promise<void> {
    this.arrived();
    await this.gate;
    this.written.push(path);
    return super.writeFile(path, data, mode);
  }
}
