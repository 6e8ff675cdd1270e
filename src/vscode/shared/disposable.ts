// Ownership of what a component subscribes to or creates: register it once, released together.

import * as vscode from 'vscode';

export abstract class Disposable implements vscode.Disposable {
  private readonly owned: vscode.Disposable[] = [];
  private disposed = false;

  /** Takes ownership of `disposable`; disposed with this object (at once if already disposed). */
  protected register<T extends vscode.Disposable>(disposable: T): T {
    if (this.disposed) {
      disposable.dispose();
    } else {
      this.owned.push(disposable);
    }
    return disposable;
  }

  dispose(): void {
    if (this.disposed) {
      return;
    }
    this.disposed = true;
    // Last registered first: later resources may depend on earlier ones.
    vscode.Disposable.from(...this.owned.splice(0).reverse()).dispose();
  }
}
