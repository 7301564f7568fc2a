-module(xmerl_basic).
%% xmerl from the installed OTP: scan, xpath, export, export_simple, a malformed document.
-export([main/0]).
-include_lib("xmerl/include/xmerl.hrl").
main() ->
    X = "<?xml version=\"1.0\"?><root a=\"1\"><item id=\"x\">hello &amp; bye</item><item id=\"y\"><sub/>text</item><!-- c --></root>",
    {Doc, Rest} = xmerl_scan:string(X),
    io:format("~p~n", [Rest]),
    io:format("~p~n", [Doc#xmlElement.name]),
    io:format("~p~n", [[A#xmlAttribute.value || A <- xmerl_xpath:string("//item/@id", Doc)]]),
    io:format("~p~n", [[T#xmlText.value || T <- xmerl_xpath:string("//item/text()", Doc)]]),
    io:format("~s~n", [lists:flatten(xmerl:export([Doc], xmerl_xml))]),
    Simple = {person, [{id, "7"}], [{name, ["Ann"]}, {age, ["33"]}]},
    io:format("~s~n", [lists:flatten(xmerl:export_simple([Simple], xmerl_xml))]),
    R = (catch xmerl_scan:string("<a><b></a>", [{quiet, true}])),
    io:format("~p~n", [element(1, R)]),
    ok.
