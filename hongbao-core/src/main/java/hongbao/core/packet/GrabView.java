package hongbao.core.packet;

import hongbao.core.money.Amount;
import java.time.Instant;

/** One grab as the details page shows it. */
public record GrabView(String userId, Amount amount, Instant at, boolean paid) {}
