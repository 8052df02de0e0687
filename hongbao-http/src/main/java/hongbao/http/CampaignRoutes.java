package hongbao.http;

import hongbao.core.campaign.Campaign;
import hongbao.core.campaign.CampaignDraft;
import hongbao.core.campaign.CampaignLive;
import hongbao.core.campaign.CampaignService;
import hongbao.core.campaign.PrizeLine;
import hongbao.core.campaign.Round;
import hongbao.core.campaign.TapOutcome;
import hongbao.core.ledger.IdempotencyKey;
import hongbao.core.reward.RewardQueues;
import hongbao.core.reward.RewardRules;
import hongbao.http.auth.Caller;
import io.vertx.core.internal.ContextInternal;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import java.math.BigInteger;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * The red-packet rain's routes (API.md part 2, "Campaigns"): creating a campaign (admin,
 * Idempotency-Key), editing a scheduled one (admin, PUT), reading one, tapping. Tap outcomes are
 * 200 answers; only the tap rate limit is an error (429). Everything touching Redis or PostgreSQL
 * runs on a virtual thread.
 */
public final class CampaignRoutes implements HttpApi.Routes, AutoCloseable {

  private static final Set<String> ROUND_FIELDS = Set.of("startsAt", "durationSeconds", "prizes");
  private static final Set<String> PRIZE_FIELDS = Set.of("type", "amount", "count");

  private final CampaignService campaigns;
  private final hongbao.core.campaign.TapService taps;
  private final CampaignLive live;
  private final TapMeters meters;
  private final Blocking blocking = new Blocking();

  public CampaignRoutes(
      CampaignService campaigns,
      hongbao.core.campaign.TapService taps,
      CampaignLive live,
      io.micrometer.core.instrument.MeterRegistry metrics) {
    this.campaigns = campaigns;
    this.taps = taps;
    this.live = live;
    this.meters = new TapMeters(metrics);
  }

  @Override
  public void mount(Router router) {
    router.post("/api/v1/admin/campaigns").handler(this::create);
    router.put("/api/v1/admin/campaigns/:id").handler(this::edit);
    router.get("/api/v1/campaigns/:id").handler(this::view);
    router.post("/api/v1/campaigns/:id/taps").handler(this::tap);
    router.get("/api/v1/admin/campaigns/:id/live").handler(this::live);
  }

  private static JsonFields campaignBody(RoutingContext ctx) {
    return JsonFields.parse(
        ctx.body().buffer(), "name", "budget", "rounds", "maxWinsPerUser", "tapsPerUserPerSecond");
  }

  private static CampaignDraft draft(JsonFields body) {
    return new CampaignDraft(
        body.requiredString("name"),
        body.requiredInteger("budget"),
        rounds(body.json().getValue("rounds")),
        body.requiredInteger("maxWinsPerUser"),
        body.requiredInteger("tapsPerUserPerSecond"));
  }

  private void create(RoutingContext ctx) {
    JsonFields body = campaignBody(ctx);
    var draft = draft(body);
    IdempotencyKey key = HttpApi.idempotencyKey(ctx, CampaignService.ENDPOINT, body);
    blocking
        .call(
            ctx.vertx().getOrCreateContext(),
            () ->
                campaigns.create(
                    draft, key, campaign -> AnswerKind.CREATED.answer(key, created(campaign))))
        .onComplete(result -> HttpApi.replay(ctx, result));
  }

  /**
   * PUT: the campaign's terms replaced by the body's (the same body as a creation), while it is
   * scheduled and its first round more than the edit lead away; answered as GET shows it. The body
   * is validated before the campaign is looked at, as for a creation.
   */
  private void edit(RoutingContext ctx) {
    var draft = draft(campaignBody(ctx));
    String id = campaignId(ctx);
    blocking
        .call(ctx.vertx().getOrCreateContext(), () -> campaigns.edit(id, draft))
        .onComplete(result -> HttpApi.answer(ctx, result.map(CampaignRoutes::viewJson)));
  }

  private static List<CampaignDraft.RoundDraft> rounds(Object value) {
    if (!(value instanceof JsonArray array)) {
      throw ApiError.invalid("rounds must be an array");
    }
    if (array.size() > hongbao.core.campaign.CampaignRules.ROUNDS_MAX) {
      throw ApiError.invalid("a campaign has 1 to 24 rounds");
    }
    var rounds = new ArrayList<CampaignDraft.RoundDraft>();
    for (Object item : array) {
      JsonObject round = object(item, "a round", ROUND_FIELDS);
      rounds.add(
          new CampaignDraft.RoundDraft(
              instant(round.getValue("startsAt")),
              integer(round.getValue("durationSeconds"), "durationSeconds"),
              prizes(round.getValue("prizes"))));
    }
    return rounds;
  }

  private static List<PrizeLine> prizes(Object value) {
    if (!(value instanceof JsonArray array)) {
      throw ApiError.invalid("prizes must be an array");
    }
    if (array.size() > hongbao.core.campaign.CampaignRules.PRIZE_LINES_MAX) {
      throw ApiError.invalid("a round has 1 to 20 prize lines");
    }
    var prizes = new ArrayList<PrizeLine>();
    for (Object item : array) {
      JsonObject prize = object(item, "a prize", PRIZE_FIELDS);
      if (!(prize.getValue("type") instanceof String type)) {
        throw ApiError.invalid("a prize's type is required (a string)");
      }
      prizes.add(
          new PrizeLine(
              type,
              integer(prize.getValue("amount"), "amount"),
              integer(prize.getValue("count"), "count")));
    }
    return prizes;
  }

  private static JsonObject object(Object item, String what, Set<String> known) {
    if (!(item instanceof JsonObject object)) {
      throw ApiError.invalid(what + " must be an object");
    }
    for (String name : object.fieldNames()) {
      if (!known.contains(name)) {
        throw ApiError.invalid("unknown field in " + what + "; known fields: " + known);
      }
    }
    return object;
  }

  private static long integer(Object value, String field) {
    return switch (value) {
      case Integer i -> i;
      case Long l -> l;
      case BigInteger b -> b.signum() < 0 ? Long.MIN_VALUE : JsonFields.OUT_OF_RANGE;
      case null -> throw ApiError.invalid(field + " is required");
      default -> throw ApiError.invalid(field + " must be an integer");
    };
  }

  private static Instant instant(Object value) {
    if (!(value instanceof String text)) {
      throw ApiError.invalid("startsAt is required (an ISO-8601 UTC time)");
    }
    try {
      return Instant.parse(text);
    } catch (DateTimeParseException e) {
      throw ApiError.invalid("startsAt must be an ISO-8601 UTC time like 2027-02-16T12:00:00Z");
    }
  }

  private void view(RoutingContext ctx) {
    String id = campaignId(ctx);
    blocking
        .call(ctx.vertx().getOrCreateContext(), () -> campaigns.view(id))
        .onComplete(result -> HttpApi.answer(ctx, result.map(CampaignRoutes::viewJson)));
  }

  private void live(RoutingContext ctx) {
    String id = campaignId(ctx);
    blocking
        .call(ctx.vertx().getOrCreateContext(), () -> live.live(id))
        .onComplete(result -> HttpApi.answer(ctx, result.map(CampaignLiveJson::render)));
  }

  private void tap(RoutingContext ctx) {
    long started = System.nanoTime();
    Caller caller = HttpApi.caller(ctx);
    // The request itself (400) before the campaign it names (404), as the contract orders them.
    JsonFields.parse(ctx.body().buffer(), "clientTapId");
    String id = campaignId(ctx);
    var context = (ContextInternal) ctx.vertx().getOrCreateContext();
    taps.tap(id, caller.userId(), blocking.executor())
        .whenComplete(
            (outcome, failure) -> {
              // A miss normally completes on this request's own event loop (the Redis link has a
              // connection per loop): answer right here. From a virtual thread (a win), hand over.
              if (context.inThread()) {
                context.dispatch(() -> answerTap(ctx, outcome, failure, started));
              } else {
                context.runOnContext(ignored -> answerTap(ctx, outcome, failure, started));
              }
            });
  }

  private void answerTap(RoutingContext ctx, TapOutcome outcome, Throwable failure, long started) {
    Throwable cause = failure == null ? null : Failures.unwrap(failure);
    if (cause instanceof RewardQueues.QueuesFull) {
      // The win is recorded in the pools; the closer issues it if nobody else does.
      ctx.fail(new ApiError(503, "UNAVAILABLE", "the reward queues are down"));
      return;
    }
    if (cause != null) {
      ctx.fail(cause);
      return;
    }
    meters.answered(outcome, started);
    if (outcome instanceof TapOutcome.RateLimited) {
      ctx.fail(new ApiError(429, "RATE_LIMITED", "too many taps; slow down"));
      return;
    }
    HttpApi.json(ctx, 200, tapJson(outcome));
  }

  private static String campaignId(RoutingContext ctx) {
    String id = ctx.pathParam("id");
    if (id == null || !RewardRules.CAMPAIGN_ID.matcher(id).matches()) {
      throw ApiError.notFound("no such campaign");
    }
    return id;
  }

  // ------------------------------------------------------------------------------- rendering

  static JsonObject tapJson(TapOutcome outcome) {
    return switch (outcome) {
      case TapOutcome.Won won ->
          new JsonObject()
              .put("outcome", "WON")
              .put(
                  "reward",
                  new JsonObject()
                      .put("tradeNo", won.tradeNo())
                      .put("type", won.type())
                      .put("amount", won.amount())
                      .put("token", won.token()));
      case TapOutcome.Missed missed -> new JsonObject().put("outcome", "MISSED");
      case TapOutcome.NotStarted next ->
          new JsonObject()
              .put("outcome", "NOT_STARTED")
              .put("nextRoundAt", Render.time(next.nextRoundAt()));
      case TapOutcome.Ended ended -> new JsonObject().put("outcome", "ENDED");
      case TapOutcome.LimitReached limit -> new JsonObject().put("outcome", "LIMIT_REACHED");
      case TapOutcome.RateLimited limited ->
          throw new IllegalStateException("a rate-limited tap is an error, not an outcome");
    };
  }

  /** The campaign as stored, as the creation answers it (and replays it verbatim). */
  private static JsonObject created(Campaign campaign) {
    var rounds = new JsonArray();
    for (Round round : campaign.rounds()) {
      var json = roundJson(round);
      json.put("status", round.runsAt(campaign.createdAt()) ? "RUNNING" : statusAt(round, campaign))
          .put("prizesLeft", round.prizeCount());
      rounds.add(json);
    }
    return campaignJson(campaign, rounds)
        .put("status", campaign.statusAt(campaign.createdAt()).name())
        .put("spent", 0L)
        .put("returned", null);
  }

  private static String statusAt(Round round, Campaign campaign) {
    return campaign.createdAt().isBefore(round.startsAt()) ? "SCHEDULED" : "ENDED";
  }

  private static JsonObject viewJson(CampaignService.CampaignView view) {
    var rounds = new JsonArray();
    for (CampaignService.CampaignView.RoundView r : view.rounds()) {
      var json = roundJson(r.round());
      JsonArray prizes = json.getJsonArray("prizes");
      for (int line = 0; line < prizes.size(); line++) {
        prizes.getJsonObject(line).put("left", r.left().get(line));
      }
      json.put("status", r.status().name()).put("prizesLeft", r.prizesLeft());
      rounds.add(json);
    }
    return campaignJson(view.campaign(), rounds)
        .put("status", view.status().name())
        .put("spent", view.spent().fen())
        .put("returned", view.returned() == null ? null : view.returned().fen());
  }

  private static JsonObject campaignJson(Campaign campaign, JsonArray rounds) {
    return new JsonObject()
        .put("id", campaign.id())
        .put("name", campaign.name())
        .put("budget", campaign.budget().fen())
        .put("rounds", rounds)
        .put("maxWinsPerUser", campaign.maxWinsPerUser())
        .put("tapsPerUserPerSecond", campaign.tapsPerUserPerSecond())
        .put("startsAt", Render.time(campaign.startsAt()))
        .put("endsAt", Render.time(campaign.endsAt()))
        .put("createdAt", Render.time(campaign.createdAt()))
        .put("version", campaign.version());
  }

  private static JsonObject roundJson(Round round) {
    var prizes = new JsonArray();
    for (PrizeLine prize : round.prizes()) {
      prizes.add(
          new JsonObject()
              .put("type", prize.type())
              .put("amount", prize.amount())
              .put("count", prize.count()));
    }
    return new JsonObject()
        .put("round", round.number())
        .put("startsAt", Render.time(round.startsAt()))
        .put("durationSeconds", round.duration().toSeconds())
        .put("endsAt", Render.time(round.endsAt()))
        .put("subPools", round.subPools())
        .put("prizes", prizes);
  }

  @Override
  public void close() {
    blocking.close();
  }
}
