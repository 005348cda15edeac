-- Legacy ERP (SQLite). The vendor's tables as its installer creates
-- them: the SQL Server original's types (SQLite keeps them as affinities),
-- no foreign keys, several companies in one database.

CREATE TABLE CompanyMaster (
    CompCd   SMALLINT PRIMARY KEY,
    CompNm   VARCHAR(100) NOT NULL,
    ShortNm  VARCHAR(10),
    GSTIN    VARCHAR(15),
    Addr1    VARCHAR(100),
    City     VARCHAR(40),
    StateCd  CHAR(2),
    FYFrom   DATE,
    ActiveYN CHAR(1) DEFAULT 'Y'
);

CREATE TABLE GodownMaster (
    CompCd SMALLINT NOT NULL,
    GdnCd  VARCHAR(6) NOT NULL,
    GdnNm  VARCHAR(40),
    RejGdn CHAR(1) DEFAULT 'N',
    PRIMARY KEY (CompCd, GdnCd)
);

CREATE TABLE ItemMaster (
    ItmId      INTEGER PRIMARY KEY,
    Company    VARCHAR(100),
    ItmCd      VARCHAR(20),
    ItmNm      VARCHAR(100),
    ShortNm    VARCHAR(100),
    GrpNm      VARCHAR(40),
    UOM        VARCHAR(8),
    AltUOM     VARCHAR(8),
    ConvFact   INTEGER,
    Rt         NUMERIC(12,2),
    MRP        NUMERIC(12,2),
    TaxPer     NUMERIC(5,2),
    HSNCd      VARCHAR(10),
    ReOrdLvl   NUMERIC(12,3),
    CreatedOn  DATETIME,
    ModifiedOn DATETIME
);
CREATE INDEX IX_ItemMaster_ItmCd ON ItemMaster (ItmCd);

CREATE TABLE ItemStock (
    CompCd  SMALLINT NOT NULL,
    ItmId   INTEGER NOT NULL,
    GdnCd   VARCHAR(6) NOT NULL,
    ClQty   NUMERIC(14,3),
    WIPQty  NUMERIC(14,3),
    LastUpd DATETIME,
    PRIMARY KEY (CompCd, ItmId, GdnCd)
);

CREATE TABLE PartyMaster (
    PartyCd   VARCHAR(10) PRIMARY KEY,
    PartyNm   VARCHAR(100),
    Alias     VARCHAR(60),
    PartyType VARCHAR(4),
    Mob       VARCHAR(20),
    Email     VARCHAR(60),
    Addr1     VARCHAR(100),
    City      VARCHAR(40),
    GSTIN     VARCHAR(15),
    CrLmt     NUMERIC(14,2),
    CrDays    SMALLINT,
    PayMode   VARCHAR(10),
    CreatedOn DATETIME
);

CREATE TABLE PartyBal (
    CompCd    SMALLINT NOT NULL,
    PartyCd   VARCHAR(10) NOT NULL,
    OpBal     NUMERIC(14,2),
    DrTot     NUMERIC(14,2),
    CrTot     NUMERIC(14,2),
    ClBal     NUMERIC(14,2),
    LastTxnDt DATE,
    PRIMARY KEY (CompCd, PartyCd)
);

CREATE TABLE SupplierMaster (
    SupCd        VARCHAR(10) PRIMARY KEY,
    SupNm        VARCHAR(100),
    SupplerPhone VARCHAR(20),
    GSTIN        VARCHAR(15),
    City         VARCHAR(40)
);

CREATE TABLE SalesOrdHdr (
    OrdId      INTEGER PRIMARY KEY,
    CompCd     SMALLINT NOT NULL,
    OrdNo      VARCHAR(20),
    OrdDt      DATE,
    PartyCd    VARCHAR(10),
    SmanCd     VARCHAR(6),
    AMT        NUMERIC(14,2),
    StatCd     SMALLINT,
    Remarks    VARCHAR(200),
    CreatedOn  DATETIME,
    ModifiedOn DATETIME,
    ModifiedBy VARCHAR(20)
);
CREATE INDEX IX_SalesOrdHdr_ModifiedOn ON SalesOrdHdr (ModifiedOn);
CREATE INDEX IX_SalesOrdHdr_CompDt ON SalesOrdHdr (CompCd, OrdDt);
CREATE INDEX IX_SalesOrdHdr_OrdNo ON SalesOrdHdr (OrdNo);

CREATE TABLE SalesOrdDtl (
    OrdId  INTEGER NOT NULL,
    SrNo   SMALLINT NOT NULL,
    ItmId  INTEGER,
    Qty    NUMERIC(12,3),
    Rt     NUMERIC(12,2),
    TaxPer NUMERIC(5,2),
    Amt    NUMERIC(14,2),
    TaxAmt NUMERIC(14,2),
    PRIMARY KEY (OrdId, SrNo)
);

CREATE TABLE BillRegister (
    CompCd  SMALLINT NOT NULL,
    BillNo  VARCHAR(20) NOT NULL,
    BillDt  DATE,
    PartyCd VARCHAR(10),
    OrdId   INTEGER,
    Amount  NUMERIC(14,2),
    BalAmt  NUMERIC(14,2),
    DueDt   DATE,
    CancYN  CHAR(1) DEFAULT 'N',
    PRIMARY KEY (CompCd, BillNo)
);
CREATE INDEX IX_BillRegister_Party ON BillRegister (CompCd, PartyCd);

CREATE TABLE Receipts (
    RcptId    INTEGER PRIMARY KEY,
    CompName  VARCHAR(100),
    RcptNo    VARCHAR(20),
    RcptDt    DATE,
    PartyCd   VARCHAR(10),
    RcptAmt   NUMERIC(14,2),
    PayMode   VARCHAR(10),
    RefNo     VARCHAR(30),
    BankNm    VARCHAR(40),
    Narration VARCHAR(200),
    EntryOn   DATETIME
);
CREATE INDEX IX_Receipts_RcptDt ON Receipts (RcptDt);

CREATE TABLE GRNHdr (
    CompCd   SMALLINT NOT NULL,
    GRNNo    VARCHAR(20) NOT NULL,
    GRNDt    DATE,
    SupCd    VARCHAR(10),
    SupInvNo VARCHAR(20),
    SupInvDt DATE,
    PRIMARY KEY (CompCd, GRNNo)
);

CREATE TABLE GRNDtl (
    CompCd SMALLINT NOT NULL,
    GRNNo  VARCHAR(20) NOT NULL,
    SrNo   SMALLINT NOT NULL,
    ItmId  INTEGER,
    RecQty NUMERIC(12,3),
    AccQty NUMERIC(12,3),
    RejQty NUMERIC(12,3),
    Rt     NUMERIC(12,2),
    PRIMARY KEY (CompCd, GRNNo, SrNo)
);

CREATE TABLE AuditTrail (
    LogId   INTEGER PRIMARY KEY,
    TblNm   VARCHAR(40),
    KeyVal  VARCHAR(40),
    Action  CHAR(1),
    OldVal  VARCHAR(200),
    NewVal  VARCHAR(200),
    UserId  VARCHAR(20),
    LogTime DATETIME
);

CREATE TABLE SalesOrdHdr_Bak (
    OrdId      INTEGER,
    CompCd     SMALLINT,
    OrdNo      VARCHAR(20),
    OrdDt      DATE,
    PartyCd    VARCHAR(10),
    SmanCd     VARCHAR(6),
    AMT        NUMERIC(14,2),
    StatCd     SMALLINT,
    Remarks    VARCHAR(200),
    CreatedOn  DATETIME,
    ModifiedOn DATETIME,
    ModifiedBy VARCHAR(20)
);

CREATE TABLE TmpStkUpload (
    ItmCd  VARCHAR(20),
    ItmNm  VARCHAR(100),
    ClQty  NUMERIC(14,3),
    UpldOn DATETIME
);
