-module(decode_packet_http).
-export([main/0]).
%% erlang:decode_packet/3 over the http types (request and status lines, URIs, every known header
%% name, canonicalisation, continuation lines, errors, size options) and the other packet types.

headers() ->
    ["Cache-Control", "Connection", "Date", "Pragma", "Transfer-Encoding", "Upgrade", "Via", "Accept",
     "Accept-Charset", "Accept-Encoding", "Accept-Language", "Authorization", "From", "Host",
     "If-Modified-Since", "If-Match", "If-None-Match", "If-Range", "If-Unmodified-Since", "Max-Forwards",
     "Proxy-Authorization", "Range", "Referer", "User-Agent", "Age", "Location", "Proxy-Authenticate",
     "Public", "Retry-After", "Server", "Vary", "Warning", "Www-Authenticate", "Allow", "Content-Base",
     "Content-Encoding", "Content-Language", "Content-Length", "Content-Location", "Content-Md5",
     "Content-Range", "Content-Type", "Etag", "Expires", "Last-Modified", "Accept-Ranges", "Set-Cookie",
     "Set-Cookie2", "X-Forwarded-For", "Cookie", "Keep-Alive", "Proxy-Connection"].

run(T, B, O) ->
    try erlang:decode_packet(T, B, O)
    catch error:R -> {error, R}
    end.

show(T, B, O) -> io:format("~p ~p ~p~n  -> ~p~n", [T, B, O, run(T, B, O)]).

main() ->
    %% every known header, as written, lower case and upper case, list and binary
    [begin
         show(T, list_to_binary(N ++ ": v\r\nX"), []),
         show(T, list_to_binary(string:lowercase(N) ++ ":v\r\n\r\n"), []),
         show(T, list_to_binary(string:uppercase(N) ++ ":\t v w \r\n "), [])
     end || N <- headers() ++ ["Content-MD5", "WWW-Authenticate", "ETag", "set-cookie2", "X-Unknown", "x-forwarded-FOR"],
            T <- [httph, httph_bin]],
    Lines = [
        %% request lines
        "GET / HTTP/1.1\r\n", "OPTIONS * HTTP/1.0\r\n", "HEAD /x HTTP/1.1\r\n", "POST /p?q=1&r HTTP/1.1\r\n",
        "PUT /a/b HTTP/1.1\r\n", "DELETE /d HTTP/1.1\r\n", "TRACE / HTTP/1.1\r\n", "CONNECT h:443 HTTP/1.1\r\n",
        "get / HTTP/1.1\r\n", "Get / HTTP/1.1\r\n", "BREW /pot HTTP/1.1\r\n", "PATCH /x HTTP/1.1\n",
        "GET /\r\n", "GET / \r\n", "GET  /  HTTP/1.1\r\n", "GET\t/\tHTTP/1.1\r\n", "GET / HTTP/1.1  \r\n",
        "GET / HTTP/1.1x\r\n", "GET / HTTP/12.34\r\n", "GET / HTTP/1.\r\n", "GET / HTTP/.1\r\n", "GET / HTTP/1\r\n",
        "GET / http/1.1\r\n", "GET / HTTP/2\r\n", "GET / FOO/1.1\r\n", "GET / HTTP/1.1 extra\r\n", "GET / HTTP/99999999999.1\r\n",
        "GET\r\n", "GET \r\n", " GET / HTTP/1.1\r\n", "G(T / HTTP/1.1\r\n", "GET/ / HTTP/1.1\r\n", "\r\n", "\n", "\r\r\n",
        "garbage\r\n", "a b c d\r\n", "GET / HTTP/1.1\r", "GET / HTTP/1.1", "GET / HTTP/1.1\rX\n",
        [71,69,84,32,47,200,32,72,84,84,80,47,49,46,49,13,10],
        %% URIs
        "GET * HTTP/1.1\r\n", "GET ** HTTP/1.1\r\n", "GET x HTTP/1.1\r\n", "GET xy HTTP/1.1\r\n",
        "GET http://h HTTP/1.1\r\n", "GET http://h/ HTTP/1.1\r\n", "GET http://h:80/p?q HTTP/1.1\r\n",
        "GET HTTP://H:8x/ HTTP/1.1\r\n", "GET https://h:443 HTTP/1.1\r\n", "GET hTTpS://h:0/a HTTP/1.1\r\n",
        "GET http://h: HTTP/1.1\r\n", "GET http:// HTTP/1.1\r\n", "GET http:///x HTTP/1.1\r\n",
        "GET http://[::1]:80/x HTTP/1.1\r\n", "GET http://u@h:99999/x HTTP/1.1\r\n", "GET http:/x HTTP/1.1\r\n",
        "GET ftp://x/y HTTP/1.1\r\n", "GET foo:bar HTTP/1.1\r\n", "GET mailto: HTTP/1.1\r\n", "GET a:b:c HTTP/1.1\r\n",
        "GET :x HTTP/1.1\r\n", "GET //h/p HTTP/1.1\r\n", "GET http://h:12:34/ HTTP/1.1\r\n",
        %% status lines
        "HTTP/1.1 200 OK\r\n", "HTTP/1.0 404 Not Found\r\n", "HTTP/1.1 200\r\n", "HTTP/1.1 200 \r\n",
        "HTTP/1.1 abc\r\n", "HTTP/1.1  200  OK  \r\n", "HTTP/1 200 OK\r\n", "HTTP/x.1 200 OK\r\n", "HTTP/1.1\r\n",
        "HTTP/1.1 \r\n", "HTTP/1.1 2x0 OK\r\n", "HTTP/1.1\t500\tErr\r\n", "HTTP/", "HTTP/\r\n", "HTTP/2.0 101 Switching\n",
        "HTTP/1.1 200OK\r\n", "HTTP/1.1 200 OK\r\nmore", "HTTP/1.1 99999999999 X\r\n"],
    [show(T, list_to_binary(L), []) || L <- Lines, T <- [http, http_bin]],
    HLines = [
        "Host: x\r\n\r\n", "Host: x\r\n", "Host: x\r\n x2\r\n\r\n", "Host: x\r\n\tx2\r\n y\r\nZ: 1\r\n",
        "Host: x\r\n\r\n x\r\n", "Host:x\n\n", "Host:  \r\n\r\n", "Host:\r\n\r\n", "Host : x\r\n\r\n",
        "Host\r\n\r\n", ": x\r\n\r\n", "\r\n", "\n", "\r\nHost: x\r\n", "x-y-z: 1\r\n\r\n", "x--y: 1\r\n\r\n",
        "-x: 1\r\n\r\n", "a1b-2c: 1\r\n\r\n", "X_Y: 1\r\n\r\n", "X.Y: 1\r\n\r\n", "X/Y: 1\r\n\r\n",
        "content-length:5\r\n\r\n", "CONTENT-LENGTH:5\r\n\r\n", "cOnTeNt-LeNgTh:5\r\n\r\n",
        [$X, 200, $: , $v, 13, 10, 13, 10], [$X, $:, 200, 201, 13, 10, 13, 10],
        lists:duplicate(50, $a) ++ ": v\r\n\r\n", lists:duplicate(51, $a) ++ ": v\r\n\r\n",
        "accept-" ++ lists:duplicate(60, $B) ++ ": v\r\n\r\n", "Host: a\r\n b\r\n", "Host: a\r\n \r\n\r\n",
        "GET / HTTP/1.1\r\n\r\n", "Host: x\rY\r\n\r\n", "Host: x\r\r\n\r\n"],
    [show(T, list_to_binary(L), []) || L <- HLines, T <- [httph, httph_bin, http_bin]],
    %% size options
    Long = <<"GET /aaaaaaaaaaaaaaaaaaaa HTTP/1.1\r\n">>,
    [show(T, B, O) || T <- [http, httph_bin], B <- [Long, <<"Host: 0123456789\r\n\r\n">>, <<"Host: 0123456789">>, <<"Host: 01\r\n 23456789\r\n\r\n">>],
                      O <- [[{packet_size, 10}], [{packet_size, 20}], [{packet_size, 36}], [{line_length, 10}],
                            [{line_length, 20}], [{packet_size, 100}, {line_length, 10}], [{packet_size, 0}]]],
    %% other types
    Others = [{raw, <<>>}, {raw, <<"abc">>}, {0, <<"x">>}, {1, <<>>}, {1, <<3, 1, 2>>}, {1, <<2, 1, 2, 3>>},
              {2, <<0, 2, 9, 9, 7>>}, {4, <<0, 0, 0, 1, 5, 6>>}, {4, <<255, 255, 255, 255, 1>>}, {4, <<127, 255, 255, 252>>},
              {4, <<0, 0>>}, {line, <<"abc">>}, {line, <<"ab\ncd">>}, {line, <<"\n">>},
              {asn1, <<48, 3, 1, 1, 1>>}, {asn1, <<48>>}, {asn1, <<48, 129, 2, 7, 7, 9>>}, {asn1, <<48, 133, 1, 1, 1, 1, 1>>},
              {asn1, <<31, 129, 1, 1, 5>>}, {asn1, <<31, 129, 129>>}, {asn1, <<48, 128, 7>>}, {asn1, <<48, 132, 0, 0, 0, 1, 7>>},
              {sunrm, <<128, 0, 0, 2, 9, 9>>}, {sunrm, <<0, 0, 0, 3, 9>>},
              {cdr, <<"GIOP", 1, 0, 0, 0, 0, 0, 0, 1, 7>>}, {cdr, <<"GIOP", 1, 0, 1, 0, 1, 0, 0, 0, 7, 8>>},
              {cdr, <<"XIOP", 1, 0, 0, 0, 0, 0, 0, 1, 7>>}, {cdr, <<"GIOP">>},
              {fcgi, <<1, 1, 0, 1, 0, 2, 1, 0, 7, 7, 0, 5>>}, {fcgi, <<2, 1, 0, 1, 0, 2, 1, 0, 7, 7, 0>>}, {fcgi, <<1, 1, 0, 1, 0, 2, 1, 0, 7>>},
              {tpkt, <<3, 0, 0, 5, 9, 8>>}, {tpkt, <<3, 0, 0, 4>>}, {tpkt, <<3, 0, 0, 3>>}, {tpkt, <<4, 0, 0, 5, 9>>},
              {ssl_tls, <<22, 3, 1, 0, 2, 7, 7, 1>>}, {ssl_tls, <<128, 5, 1, 3, 1, 9, 9>>}, {ssl_tls, <<23, 3, 3, 0, 9, 1>>}, {ssl_tls, <<23, 3>>},
              {http, <<"GET / HTTP/1.1\r\n", 1:3>>}, {4, <<0, 0, 0, 1, 5, 6:5>>}],
    [show(T, B, O) || {T, B} <- Others, O <- [[], [{packet_size, 2}]]],
    [show(line, <<"abcdef\nxy">>, O) || O <- [[{line_length, 3}], [{line_length, 7}], [{line_length, 8}], [{packet_size, 3}], [{packet_size, 7}],
                                                 [{line_delimiter, $c}], [{line_delimiter, 0}], [{line_length, 3}, {packet_size, 5}]]],
    show(line, <<"abc">>, [{line_length, 3}]), show(line, <<"abc">>, [{line_length, 4}]), show(line, <<"abcd">>, [{packet_size, 3}]),
    %% bad arguments
    [show(T, B, O) || {T, B, O} <- [{http, <<"x">>, [{line_delimiter, 10}]}, {line, <<"x">>, [{line_delimiter, 256}]},
                                    {http, <<"x">>, [{packet_size, -1}]}, {http, <<"x">>, [{packet_size, 1 bsl 32}]},
                                    {http, <<"x">>, [{packet_size, (1 bsl 32) - 1}]}, {http, <<"x">>, [{foo, 1}]},
                                    {http, <<"x">>, [bar]}, {http, <<"x">>, foo},
                                    {http, "GET", []}, {3, <<>>, []}, {https, <<>>, []}, {ssl, <<>>, []}, {-1, <<>>, []}]],
    ok.
