package hongbao.core.packet;

import hongbao.core.RejectedException;
import hongbao.core.Rejection;
import hongbao.core.activity.ActivityStore;
import hongbao.core.grab.Arming;
import hongbao.core.ledger.Idempotency;
import hongbao.core.ledger.IdempotencyKey;
import hongbao.core.ledger.IdempotencyRaceException;
import hongbao.core.ledger.Ledger;
import hongbao.core.ledger.StoredAnswer;
import hongbao.core.money.Amount;
import hongbao.core.ops.Switch;
import hongbao.core.ops.Switches;
import hongbao.core.password.PasswordKey;
import hongbao.core.password.PasswordMatch;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.function.Function;

/**
 * Funds a packet: validate, replay or refuse a known idempotency key, debit the sender into the
 * packet's escrow in one ledger transaction, then arm the packet for grabbing. Arming after the
 * commit may fail; the {@link hongbao.core.grab.Rearmer} finishes it, so a paid-for packet never
 * stays unarmed.
 */
public final class SendService {

  public static final String ENDPOINT = "send";

  private final SendRules rules;
  private final Ledger ledger;
  private final Arming arming;
  private final Switches switches;
  private final ActivityStore activities;
  private final Clock clock;

  public SendService(
      SendRules rules,
      Ledger ledger,
      Arming arming,
      Switches switches,
      ActivityStore activities,
      Clock clock) {
    this.rules = rules;
    this.ledger = ledger;
    this.arming = arming;
    this.switches = switches;
    this.activities = activities;
    this.clock = clock;
  }

  /** The bounds a send request must keep, for clients that name them. */
  public PacketLimits limits() {
    return rules.limits();
  }

  /**
   * Sends a packet and returns the answer to give the client: the stored one for a replay, or a new
   * one rendered from the packet by {@code render}.
   */
  public StoredAnswer send(
      SendRequest request, IdempotencyKey key, Function<Packet, StoredAnswer> render) {
    long expirySeconds = rules.validate(request);
    Optional<StoredAnswer> earlier = Idempotency.replay(ledger, key);
    if (earlier.isPresent()) {
      return earlier.get();
    }
    if (!switches.enabled(Switch.SENDING)) {
      throw new RejectedException(Rejection.DISABLED, "sending is switched off");
    }
    long activityId = request.activityId();
    if (activityId != 0 && activities.find(activityId).isEmpty()) {
      throw new RejectedException(Rejection.NOT_FOUND, "no such activity");
    }
    Instant now = clock.instant();
    PasswordMatch match =
        request.password() == null
            ? PasswordMatch.EXACT
            : request.passwordMatch() == null ? PasswordMatch.DEFAULT : request.passwordMatch();
    Packet packet =
        new Packet(
            Packet.idOf(ledger.nextPacketId(), activityId),
            request.sender(),
            request.type(),
            Amount.fen(request.amount()),
            Math.toIntExact(request.count()),
            request.greeting(),
            request.password() == null ? null : PasswordKey.of(request.password()),
            request.recipients() == null ? List.of() : request.recipients(),
            now,
            now.plus(Duration.ofSeconds(expirySeconds)),
            match);
    StoredAnswer answer = render.apply(packet);
    try {
      ledger.send(packet, key, answer);
    } catch (IdempotencyRaceException race) {
      return Idempotency.replay(ledger, key).orElseThrow(() -> race);
    }
    arming.armQuietly(packet);
    return answer;
  }
}
