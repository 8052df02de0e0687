package hongbao.testkit.sim;

import hongbao.core.grab.GrabReceipt;
import hongbao.core.grab.Receipts;
import java.util.Optional;

/** Receipts that open one given receipt, for its own user only: the claim tests' seal. */
final class OneReceipt implements Receipts {

  private final GrabReceipt receipt;

  OneReceipt(GrabReceipt receipt) {
    this.receipt = receipt;
  }

  @Override
  public String seal(GrabReceipt sealed) {
    return "receipt";
  }

  @Override
  public Optional<GrabReceipt> open(String token, String userId) {
    return Optional.of(receipt).filter(r -> r.userId().equals(userId));
  }
}
