package hongbao.core.password;

import java.util.Optional;
import java.util.concurrent.CompletionStage;

/** Port: the lock a packet in the fast store carries, read without the ledger. */
public interface PasswordLocks {

  /**
   * The packet's lock, or empty when the packet has no 口令 or the store does not have the packet.
   * Completes on a store thread.
   */
  CompletionStage<Optional<PasswordLock>> lockOf(long packetId);
}
