package hongbao.http;

import hongbao.core.activity.Activity;
import hongbao.core.activity.ActivityCounts;
import hongbao.core.activity.ActivityService;
import hongbao.core.packet.Packet;
import io.vertx.core.AsyncResult;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;

/**
 * The activity endpoints (docs/activities.md): an operator creates an activity with a per-user grab
 * limit; anyone signed in reads it with each user's count. Activity ids are the Sqids of the number
 * behind an {@code a_} prefix, so they are never mistaken for packet ids.
 */
final class ActivityRoutes {

  static final String ID_PREFIX = "a_";

  private final ActivityService activities;
  private final PacketIds ids;
  private final Blocking blocking;

  ActivityRoutes(ActivityService activities, PacketIds ids, Blocking blocking) {
    this.activities = activities;
    this.ids = ids;
    this.blocking = blocking;
  }

  /** Mounts the routes; the caller has put authentication and the admin check in front. */
  void mount(Router router) {
    router.post("/api/v1/admin/activities").handler(this::create);
    router.get("/api/v1/activities/:id").handler(this::show);
  }

  String encode(long activityId) {
    return ID_PREFIX + ids.encode(activityId);
  }

  /** The activity number, or -1 for a string this service never gave out. */
  long decode(String text) {
    if (text == null || !text.startsWith(ID_PREFIX)) {
      return -1;
    }
    long id = ids.decode(text.substring(ID_PREFIX.length()));
    return id >= 1 && id <= Packet.MAX_ACTIVITY_ID ? id : -1;
  }

  private void create(RoutingContext ctx) {
    JsonFields body = JsonFields.parse(ctx.body().buffer(), "name", "maxGrabsPerUser");
    String name = body.requiredString("name");
    long maxGrabsPerUser = body.requiredInteger("maxGrabsPerUser");
    String operator = HttpApi.caller(ctx).userId();
    blocking
        .call(
            ctx.vertx().getOrCreateContext(),
            () -> activities.create(name, maxGrabsPerUser, operator))
        .onComplete(result -> reply(ctx, 201, result.map(this::json)));
  }

  /**
   * The page's cursor is Redis's HSCAN cursor: an unsigned 64-bit number, which Redis refuses
   * beyond 2^64 − 1 with an error reply (a 500 here) before it looks at anything.
   */
  static boolean isScanCursor(String cursor) {
    if (!cursor.matches("[0-9]{1,20}")) {
      return false;
    }
    try {
      Long.parseUnsignedLong(cursor);
      return true;
    } catch (NumberFormatException beyond64Bits) {
      return false;
    }
  }

  private void show(RoutingContext ctx) {
    long id = decode(ctx.pathParam("id"));
    if (id < 0) {
      throw ApiError.notFound("no such activity");
    }
    int limit =
        HttpApi.intParam(ctx, "limit", ActivityService.MAX_PAGE, 1, ActivityService.MAX_PAGE);
    String cursor = HttpApi.textParam(ctx, "cursor");
    if (cursor != null && !isScanCursor(cursor)) {
      throw ApiError.invalid("cursor is not a cursor this service gave out");
    }
    blocking
        .call(ctx.vertx().getOrCreateContext(), () -> activities.view(id, cursor, limit))
        .onComplete(
            result ->
                reply(
                    ctx,
                    200,
                    result.map(
                        view ->
                            view.map(v -> withUsers(json(v.activity()), v.page()))
                                .orElseThrow(() -> ApiError.notFound("no such activity")))));
  }

  private JsonObject json(Activity activity) {
    return new JsonObject()
        .put("id", encode(activity.id()))
        .put("name", activity.name())
        .put("maxGrabsPerUser", activity.maxGrabsPerUser())
        .put("createdBy", activity.createdBy())
        .put("createdAt", Render.time(activity.createdAt()));
  }

  private static JsonObject withUsers(JsonObject activity, ActivityCounts.Page page) {
    var users = new JsonArray();
    for (ActivityCounts.UserCount user : page.users()) {
      users.add(new JsonObject().put("userId", user.userId()).put("grabs", user.grabs()));
    }
    return activity
        .put("userCount", page.userCount())
        .put("users", users)
        .put("nextCursor", page.nextCursor());
  }

  private static void reply(RoutingContext ctx, int status, AsyncResult<JsonObject> result) {
    if (result.failed()) {
      ctx.fail(result.cause());
      return;
    }
    ctx.response()
        .setStatusCode(status)
        .putHeader("content-type", "application/json; charset=utf-8")
        .end(result.result().encode());
  }
}
