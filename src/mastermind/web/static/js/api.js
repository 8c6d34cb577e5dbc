// The JSON API of the server: every call answers the server's data, or throws its error line.

export class ApiError extends Error {
  // ``game``: the game as the history holds it, where a move was not kept (played elsewhere meanwhile)
  constructor(status, message, game = null) {
    super(message);
    this.status = status;
    this.game = game;
  }
}

export async function api(method, path, body) {
  const options = { method, headers: { Accept: "application/json" }, credentials: "same-origin" };
  if (body instanceof Blob) {  // a file chosen by the visitor, sent as it is (the server reads it)
    options.headers["Content-Type"] = "application/json";
    options.body = body;
  } else if (body !== undefined) {
    options.headers["Content-Type"] = "application/json";
    options.body = JSON.stringify(body);
  }
  let response;
  try {
    response = await fetch(path, options);
  } catch {
    throw new ApiError(0, "the server cannot be reached");
  }
  let data = {};
  try {
    data = await response.json();
  } catch {
    data = { error: `the server answered ${response.status}` };
  }
  if (!response.ok) throw new ApiError(response.status, data.error || `error ${response.status}`, data.game || null);
  return data;
}
