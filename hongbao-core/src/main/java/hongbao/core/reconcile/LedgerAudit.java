package hongbao.core.reconcile;

import hongbao.core.money.Amount;
import hongbao.core.packet.Packet;
import java.util.List;

/** Port: the ledger's books, read for reconciliation. */
public interface LedgerAudit {

  /** Packets with ids above {@code afterId}, ascending. */
  List<Packet> packets(long afterId, int limit);

  /** The balance of a packet's escrow account. */
  Amount escrowBalance(long packetId);

  /**
   * Accounts whose balance is not the sum of their transfers, or is negative (the system account
   * that funds top-ups excepted), each described in one line.
   */
  List<String> accountProblems();
}
