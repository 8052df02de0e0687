package hongbao.core.grab;

import hongbao.core.money.Amount;
import java.time.Instant;

/**
 * A share taken by a user, as the grab script recorded it.
 *
 * @param seq the grab's position in the packet, from 1
 */
public record GrabRecord(String userId, Amount amount, Instant at, int seq) {}
