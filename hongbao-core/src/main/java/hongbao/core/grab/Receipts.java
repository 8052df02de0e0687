package hongbao.core.grab;

import java.util.Optional;

/** Port: seals grab receipts and opens them again. Receipts are bound to their user. */
public interface Receipts {

  /** An opaque token of at most a few hundred characters. */
  String seal(GrabReceipt receipt);

  /**
   * The receipt inside a token, if the token is genuine and was sealed for {@code userId}; empty
   * for anything else (tampered, truncated, another user's, a key no longer held).
   */
  Optional<GrabReceipt> open(String token, String userId);
}
