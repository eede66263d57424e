// Core Diagnostics as the text the views show (widgets/common/diagnosticstext.h).
#include "diagnosticstext.h"

#include <QTest>

using namespace studio;

class TestDiagnosticsText : public QObject
{
    Q_OBJECT
private slots:
    void errorsOfListsEveryMessage()
    {
        roofline::Diagnostics d;
        d.setFile("soc.json");
        d.warning("/name", "unknown key");
        d.error("/ips/2/bandwidth_gbps", "must be > 0, got -3");
        QCOMPARE(errorsOf(d), QStringLiteral("soc.json: /name: warning: unknown key\n"
                                             "soc.json: /ips/2/bandwidth_gbps: must be > 0, got -3"));
    }
    void errorLinesOfLeavesWarningsOut()
    {
        roofline::Diagnostics d;
        d.setFile("rules.json");
        d.error("/a", "first");
        d.warning("/b", "ignored");
        d.error("/c", "second");
        QCOMPARE(errorLinesOf(d), QStringLiteral("rules.json: /a: first\nrules.json: /c: second"));
    }
    void emptyDiagnosticsGiveEmptyText()
    {
        const roofline::Diagnostics d;
        QVERIFY(errorsOf(d).isEmpty());
        QVERIFY(errorLinesOf(d).isEmpty());
    }
    void appendWarningsKeepsWhatWasThere()
    {
        roofline::Diagnostics d;
        d.warning("line 3", "layer has no time");
        d.error("line 4", "not a number");
        d.warning("line 5", "duplicate layer");
        QStringList warnings{QStringLiteral("earlier")};
        appendWarnings(d, &warnings);
        QCOMPARE(warnings, (QStringList{QStringLiteral("earlier"), QStringLiteral("line 3: warning: layer has no time"),
                                        QStringLiteral("line 5: warning: duplicate layer")}));
        appendWarnings(d, nullptr); // no list: nothing to do, no crash
    }
};

QTEST_GUILESS_MAIN(TestDiagnosticsText)
#include "tst_diagnosticstext.moc"
