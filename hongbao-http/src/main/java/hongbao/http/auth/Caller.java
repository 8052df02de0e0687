package hongbao.http.auth;

/** Who is calling, as the bearer token says. */
public record Caller(String userId, boolean admin) {}
