package hongbao.core.ledger;

import hongbao.core.money.Amount;
import java.time.Instant;

/**
 * One posting on a wallet, signed: negative when money left it.
 *
 * @param packetId null for a top-up
 */
public record WalletEntry(EntryKind kind, Amount amount, Long packetId, Instant at) {}
