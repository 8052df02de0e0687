package hongbao.core.campaign;

import hongbao.core.RejectedException;
import hongbao.core.Unavailable;
import java.lang.System.Logger.Level;
import java.time.Clock;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executor;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.DoubleSupplier;

/**
 * A tap on a campaign's rain.
 *
 * <p><b>Home.</b> Every user has one home sub-pool for the whole campaign ({@link SubPools#home});
 * it holds the user's win counter. The tap is one script there: rate limit → round running? →
 * {@code maxWinsPerUser} → draw. In a round spread over as many sub-pools as the campaign has
 * homes, the draw takes a prize from the home sub-pool in the same script, so the limit can never
 * be passed whatever races.
 *
 * <p><b>Tail rule.</b> When the home sub-pool has nothing left (or the round has fewer sub-pools
 * than the campaign has homes), the home script <em>reserves</em> the win instead: it raises the
 * user's win counter (so concurrent taps of that user already count it) and hands out the win's
 * number. The tap then tries the round's other sub-pools, one script each, in an order starting at
 * a random one, skipping those this instance has seen dry (a sub-pool never refills, so a dry one
 * stays dry). The first prize found is the win; if every sub-pool is dry, the reservation is
 * released in the home slot. So a user is told MISSED by the tail only when every sub-pool of the
 * round was seen empty (or after a loss of the home slot, below), and the win counter never falls
 * below the user's wins: it is exact after every tap, and a crash between reserve and release
 * leaves it one too high (the user may win one prize fewer; never one more). The number n of a
 * released reservation is not used again, so a user's tradeNos may skip a number, but never repeat
 * one.
 *
 * <p><b>A home slot rebuilt during a tail.</b> The home script marks the reservation held along
 * with the count. A restore (Redis lost the slot) counts only the recorded wins and loses the mark
 * with the count: the tail that met the loss holds the reservation again before it draws ({@link
 * PrizePools#rehold}, or draws nothing if the user reached the limit, or may have been handed its
 * win number, since); a tail that finds its prize settles it in the home slot ({@link
 * PrizePools#settle}), counting it again if the mark is gone; a release without the mark gives
 * nothing back. A win the restore had already read as recorded is then counted twice: one win fewer
 * for its user, never one more.
 *
 * <p><b>Lost slots.</b> A slot Redis lost, or one being restored, answers LOST before it counts or
 * takes anything; the tap restores the campaign's pools from the reward book ({@link
 * PrizeRecovery}) and taps again, so no prize already won is offered twice.
 *
 * <p><b>Whether a tap draws</b> is decided before the script, with {@link WinChance} from the
 * round's pulse (taps and prizes left summed over its sub-pools), refreshed at most every {@value
 * #PULSE_MILLIS} ms of the clock or {@value #PULSE_TAPS} taps per instance. Time comes from the
 * injected clock, randomness from the injected source.
 *
 * <p><b>Threads.</b> {@link #tap(String, String, Executor)} sends the home script without waiting
 * when the campaign is kept in memory and the round's sample is fresh; a reply that settles the tap
 * (a miss, a limit, no round) completes it on the store's thread. Whatever may block (reading the
 * campaign, refreshing the sample, issuing a win, the tail, restoring a lost slot) runs on the
 * executor given. Most taps miss (nine in ten in the bench's rain) and never change threads. {@link
 * #tap(String, String)} does all of it on the calling thread.
 */
public final class TapService {

  private static final System.Logger LOG = System.getLogger(TapService.class.getName());

  static final long PULSE_MILLIS = 500;

  /** A burst refreshes the sample sooner: after this many taps of this instance. */
  static final long PULSE_TAPS = 256;

  private final Campaigns campaigns;
  private final PrizePools pools;
  private final PrizeIssuer issuer;
  private final PrizeRecovery recovery;
  private final Clock clock;
  private final DoubleSupplier uniform;
  private final Map<String, Sample> pulses = new ConcurrentHashMap<>();
  private final Map<String, Set<Integer>> dry = new ConcurrentHashMap<>();

  private record Sample(
      long atMillis, PrizePools.Pulse pulse, TapRate rate, AtomicLong tapsSince) {}

  /**
   * @param uniform values in [0, 1), thread-safe (the caller seeds it)
   */
  public TapService(
      Campaigns campaigns,
      PrizePools pools,
      PrizeIssuer issuer,
      PrizeRecovery recovery,
      Clock clock,
      DoubleSupplier uniform) {
    this.campaigns = campaigns;
    this.pools = pools;
    this.issuer = issuer;
    this.recovery = recovery;
    this.clock = clock;
    this.uniform = uniform;
  }

  /** What a tap decided before its home script: read once, used by the script and after it. */
  private record Tap(
      Campaign campaign,
      Campaign.Phase phase,
      Round round,
      String userId,
      String prefix,
      long nowMillis,
      boolean draw) {}

  /**
   * A tap, blocking the calling thread.
   *
   * @throws hongbao.core.RejectedException NOT_FOUND for an unknown campaign
   */
  public TapOutcome tap(String campaignId, String userId) {
    // The clock first: a copy got after it is right at that instant (see Campaigns).
    Instant now = clock.instant();
    Campaign campaign = campaigns.get(campaignId);
    Campaign.Phase phase = campaign.phaseAt(now);
    Round round = round(phase);
    Sample sample = round == null ? null : sample(campaign, round, now.toEpochMilli());
    Tap tap = decide(campaign, phase, sample, userId, now);
    return finish(tap, home(tap));
  }

  /**
   * A tap that blocks no thread where it can (see "Threads" above); what may block runs on {@code
   * blocking}, whose {@code execute} may refuse (the stage then fails, or this call throws).
   */
  public CompletionStage<TapOutcome> tap(String campaignId, String userId, Executor blocking) {
    Instant now = clock.instant();
    Optional<Campaign> kept = campaigns.kept(campaignId, now);
    Tap tap = kept.map(campaign -> decideWithoutBlocking(campaign, userId, now)).orElse(null);
    if (tap == null) {
      return CompletableFuture.supplyAsync(() -> tap(campaignId, userId), blocking);
    }
    return pools
        .tapAsync(
            tap.campaign(),
            tap.round(),
            userId,
            tap.prefix(),
            tap.nowMillis(),
            tap.draw(),
            uniform.getAsDouble())
        .thenCompose(
            reply -> {
              Optional<TapOutcome> settled = settled(tap, reply);
              return settled.isPresent()
                  ? CompletableFuture.completedStage(settled.get())
                  : CompletableFuture.supplyAsync(() -> finish(tap, reply), blocking);
            });
  }

  private static Round round(Campaign.Phase phase) {
    return phase instanceof Campaign.Phase.Running running ? running.round() : null;
  }

  /** The tap's decisions, or null when the round's sample is due for a refresh (a read). */
  private Tap decideWithoutBlocking(Campaign campaign, String userId, Instant now) {
    Campaign.Phase phase = campaign.phaseAt(now);
    Round round = round(phase);
    Sample sample = null;
    if (round != null) {
      sample = fresh(pulses.get(roundKey(campaign, round)), now.toEpochMilli());
      if (sample == null) {
        return null;
      }
    }
    return decide(campaign, phase, sample, userId, now);
  }

  private Tap decide(
      Campaign campaign, Campaign.Phase phase, Sample sample, String userId, Instant now) {
    Round round = round(phase);
    boolean draw = round != null && uniform.getAsDouble() < chance(round, sample, now);
    String prefix = round == null ? "" : TradeNos.prefix(campaign.id(), round.number(), userId);
    return new Tap(campaign, phase, round, userId, prefix, now.toEpochMilli(), draw);
  }

  private PrizePools.HomeReply home(Tap tap) {
    return pools.tap(
        tap.campaign(),
        tap.round(),
        tap.userId(),
        tap.prefix(),
        tap.nowMillis(),
        tap.draw(),
        uniform.getAsDouble());
  }

  /** The outcome a reply settles by itself; empty for a win, a tail reservation or a lost slot. */
  private static Optional<TapOutcome> settled(Tap tap, PrizePools.HomeReply reply) {
    return switch (reply) {
      case PrizePools.HomeReply.RateLimited limited -> Optional.of(TapOutcome.RATE_LIMITED);
      case PrizePools.HomeReply.Idle idle ->
          Optional.of(
              tap.phase() instanceof Campaign.Phase.Waiting waiting
                  ? new TapOutcome.NotStarted(waiting.nextRoundAt())
                  : TapOutcome.ENDED);
      case PrizePools.HomeReply.LimitReached limit -> Optional.of(TapOutcome.LIMIT_REACHED);
      case PrizePools.HomeReply.Missed missed -> Optional.of(TapOutcome.MISSED);
      case PrizePools.HomeReply.Won won -> Optional.empty();
      case PrizePools.HomeReply.Reserved reserved -> Optional.empty();
      case PrizePools.HomeReply.Lost lost -> Optional.empty();
    };
  }

  /** The rest of a tap after its home script's reply; may block. */
  private TapOutcome finish(Tap tap, PrizePools.HomeReply reply) {
    PrizePools.HomeReply answered = reply;
    if (answered instanceof PrizePools.HomeReply.Lost) {
      // Redis lost the slot (or another tap is restoring it): put the issued wins back first.
      recovery.restoreIfLost(tap.campaign());
      Optional<TapOutcome> over = overSince(tap.campaign(), tap.round());
      if (over.isPresent()) {
        return over.get();
      }
      answered = home(tap);
    }
    Optional<TapOutcome> settled = settled(tap, answered);
    if (settled.isPresent()) {
      return settled.get();
    }
    return switch (answered) {
      case PrizePools.HomeReply.Won won ->
          issue(tap.campaign(), tap.round(), tap.userId(), tap.prefix() + won.seq(), won.line());
      case PrizePools.HomeReply.Reserved reserved ->
          tail(
              tap.campaign(),
              tap.round(),
              tap.userId(),
              reserved.seq(),
              tap.prefix() + reserved.seq(),
              Math.floorDiv(tap.nowMillis(), 1_000));
      default ->
          throw new Unavailable(
              "redis", "the prize pools of " + tap.campaign().id() + " were lost again", null);
    };
  }

  /**
   * What a tap decided in {@code round} answers if that round is over by now; empty while it runs
   * (or when the tap was in none). A restore can be long, for restores on an instance go one at a
   * time: a tap that waited one out past its round's end must not draw then, when the closer may
   * already be counting the round's wins, which would miss that prize.
   */
  private Optional<TapOutcome> overSince(Campaign campaign, Round round) {
    if (round == null) {
      return Optional.empty();
    }
    Campaign.Phase now = campaign.phaseAt(clock.instant());
    if (now instanceof Campaign.Phase.Running running) {
      // The next round may already run (rounds may touch): this tap was for the last one, and
      // drew nothing in it; ENDED would tell the user the rain is over.
      return running.round().number() == round.number()
          ? Optional.empty()
          : Optional.of(TapOutcome.MISSED);
    }
    return Optional.of(
        now instanceof Campaign.Phase.Waiting waiting
            ? new TapOutcome.NotStarted(waiting.nextRoundAt())
            : TapOutcome.ENDED);
  }

  private TapOutcome tail(
      Campaign campaign, Round round, String userId, long seq, String tradeNo, long nowSecond) {
    Set<Integer> dryPools =
        dry.computeIfAbsent(roundKey(campaign, round), k -> ConcurrentHashMap.newKeySet());
    int home = SubPools.home(userId, campaign.homePools());
    if (home < round.subPools()) {
      dryPools.add(home);
    }
    int pools = round.subPools();
    int start = (int) (uniform.getAsDouble() * pools);
    for (int i = 0; i < pools; i++) {
      int pool = (start + i) % pools;
      if (dryPools.contains(pool)) {
        continue;
      }
      int line =
          this.pools.drawAt(
              campaign, round, pool, tradeNo, userId, nowSecond, uniform.getAsDouble());
      if (line == PrizePools.LOST) {
        recovery.restoreIfLost(campaign);
        Optional<TapOutcome> over = overSince(campaign, round);
        if (over.isPresent()) {
          // Given back only if the home slot still counts it (a rebuilt one does not).
          release(campaign, userId, seq, tradeNo);
          return over.get();
        }
        // The restore may have rebuilt the home slot from the recorded wins, without this
        // reservation: until it is held again, another tap of the user could pass the limit or be
        // handed this tradeNo.
        switch (this.pools.rehold(campaign, userId, seq, tradeNo)) {
          case HELD -> {}
          case LIMIT_REACHED -> {
            return TapOutcome.LIMIT_REACHED;
          }
          case TAKEN -> {
            return TapOutcome.MISSED;
          }
          case LOST ->
              throw new Unavailable(
                  "redis", "the prize pools of " + campaign.id() + " were lost again", null);
        }
        line =
            this.pools.drawAt(
                campaign, round, pool, tradeNo, userId, nowSecond, uniform.getAsDouble());
      }
      if (line >= 0) {
        settle(campaign, userId, seq, tradeNo);
        return issue(campaign, round, userId, tradeNo, line);
      }
      if (line != PrizePools.LOST) {
        dryPools.add(pool);
      }
    }
    this.pools.release(campaign, userId, seq, tradeNo);
    return TapOutcome.MISSED;
  }

  /**
   * Settles a tail's win in the home slot. Best effort: the prize is taken and recorded, so it is
   * issued whatever happens here; a home slot that cannot be reached keeps the reservation's count
   * (right unless the slot was also rebuilt meanwhile).
   */
  private void settle(Campaign campaign, String userId, long seq, String tradeNo) {
    try {
      if (!this.pools.settle(campaign, userId, seq, tradeNo)) {
        LOG.log(
            Level.WARNING,
            "campaign {0}: the home slot of {1} was rebuilt while its tail ran; win {2} counted"
                + " again",
            campaign.id(),
            userId,
            tradeNo);
      }
    } catch (Unavailable e) {
      LOG.log(Level.WARNING, "campaign {0}: win {1} not settled: {2}", campaign.id(), tradeNo, e);
    }
  }

  /** Gives a reservation back, best effort: one not given back costs its user one win, no more. */
  private void release(Campaign campaign, String userId, long seq, String tradeNo) {
    try {
      this.pools.release(campaign, userId, seq, tradeNo);
    } catch (Unavailable e) {
      LOG.log(
          Level.WARNING,
          "campaign {0}: reservation {1} not given back: {2}",
          campaign.id(),
          tradeNo,
          e);
    }
  }

  /**
   * Issues a drawn prize. The budget covers every prize of the rounds, so a refusal for want of it
   * means the budget was spent otherwise (another sender's reward in the campaign, allowance lost
   * to a crash while borrowing); a conflict means another campaign holds the win's tradeNo. Either
   * way ({@link PrizeIssuer#neverIssuable}) the tap is answered MISSED, as a tap answers nothing
   * but its outcomes, and the drawn win stays in the pools unissued. The closer cannot issue it
   * either; the reconciler names the campaign, whose return then falls short of its CASH won.
   */
  private TapOutcome issue(
      Campaign campaign, Round round, String userId, String tradeNo, int line) {
    PrizeLine prize = round.prizes().get(line);
    String token;
    try {
      token = issuer.issue(campaign, round, userId, tradeNo, prize);
    } catch (RejectedException refused) {
      if (!PrizeIssuer.neverIssuable(refused)) {
        throw refused;
      }
      LOG.log(
          Level.ERROR,
          "campaign {0}: win {1} drawn but it cannot be issued: {2}",
          campaign.id(),
          tradeNo,
          refused.getMessage());
      return TapOutcome.MISSED;
    }
    return new TapOutcome.Won(tradeNo, prize.type(), prize.amount(), token);
  }

  /** Per version: an edit's rounds are other rounds, in other pools. */
  private static String roundKey(Campaign campaign, Round round) {
    return campaign.id() + "/" + campaign.version() + "/" + round.number();
  }

  /** The chance of this tap drawing, from this instance's recent sample of the round. */
  private static double chance(Round round, Sample sample, Instant now) {
    return WinChance.of(
        sample.pulse().leftTotal(),
        sample.pulse().taps(),
        sample.rate(),
        now.toEpochMilli() - round.startsAt().toEpochMilli(),
        round.endsAt().toEpochMilli() - now.toEpochMilli());
  }

  /** The sample if it may still be used at {@code nowMillis} (counting this tap); else null. */
  private static Sample fresh(Sample sample, long nowMillis) {
    if (sample == null
        || nowMillis - sample.atMillis() >= PULSE_MILLIS
        || sample.tapsSince().incrementAndGet() >= PULSE_TAPS) {
      return null;
    }
    return sample;
  }

  private Sample sample(Campaign campaign, Round round, long nowMillis) {
    String key = roundKey(campaign, round);
    Sample sample = fresh(pulses.get(key), nowMillis);
    if (sample == null) {
      // Several taps may refresh at once; each read is cheap and the last one written wins.
      Sample old = pulses.get(key);
      PrizePools.Pulse pulse = pools.pulse(campaign, round);
      TapRate rate =
          (old == null ? TapRate.startingAt(round.startsAt().toEpochMilli()) : old.rate())
              .next(nowMillis, pulse.taps());
      sample = new Sample(nowMillis, pulse, rate, new AtomicLong());
      pulses.put(key, sample);
    }
    return sample;
  }
}
